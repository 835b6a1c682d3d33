"""The command line: `unitxt-evaluate` (`evaluate`: a model over recipes, results files as the original's),
`unitxt-summarize` (`summarize`: a table of a folder's results files), `unitxt-explore` (`explore`: the catalog
explorer); `arguments` parses the options, `run_files` writes and reads the results files.

Layer 9 of README "The library's layers" (entry points): may import every lower layer and `api`, `explore`.
"""
