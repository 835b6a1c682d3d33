"""`python -m unitxt.explore [--host H] [--port P]`: start the catalog explorer (needs `unitxt[ui]`)."""

import argparse

from .app import launch


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m unitxt.explore", description="Explore the unitxt catalog.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port (default: Gradio's, 7860 or the next free one)")
    arguments = parser.parse_args()
    launch(host=arguments.host, port=arguments.port)


if __name__ == "__main__":
    main()
