"""The single place where the unitxt version is defined."""

version = "0.1.0"
