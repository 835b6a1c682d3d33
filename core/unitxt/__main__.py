"""`python -m unitxt`: the `unitxt-evaluate` command."""

from .cli.evaluate import console_main

if __name__ == "__main__":
    console_main()
