"""unitxt: declarative data preparation and evaluation for generative language models."""
