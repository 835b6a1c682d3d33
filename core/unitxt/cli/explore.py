"""`unitxt-explore [--host H] [--port P]`: start the catalog explorer (Gradio, the `[ui]` extra) on 127.0.0.1 by
default."""

import argparse
import sys
from typing import List, Optional

from ..errors import MissingRequirementError


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="unitxt-explore", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Browse the unitxt catalog and preview recipes in the browser (needs: pip install 'unitxt[ui]').",
        epilog="example:\n  unitxt-explore --port 7860     # then open http://127.0.0.1:7860")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 "
                                                            "serves other machines too)")
    parser.add_argument("--port", type=int, default=None, help="port (default: Gradio's, 7860 or the next free one)")
    arguments = parser.parse_args(argv)
    from ..explore.app import launch

    try:
        launch(host=arguments.host, port=arguments.port)
    except MissingRequirementError as error:
        print(f"unitxt-explore: error: {error}", file=sys.stderr)
        return 1
    return 0


def console_main() -> None:
    sys.exit(main())


if __name__ == "__main__":
    console_main()
