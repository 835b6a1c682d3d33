"""Assess the documentation assistant with unitxt: its answers to a question set, scored by a judge metric."""
