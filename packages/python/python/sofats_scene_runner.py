"""The interpreter of `sofa-ts run scene.py`: connects to the engine that started it and serves
its calls (createScene, controllers' handlers) until the engine closes the channel."""

import signal
import sys

from Sofa._engine import engine, flush_all_files


def main():
    eng = engine()
    try:
        eng.serve_forever()
    except KeyboardInterrupt:
        return 130
    finally:
        flush_all_files()
    return 0


if __name__ == "__main__":
    # Ctrl-C goes to the engine too, which finishes its step (asking this interpreter for the
    # controllers' answers) and then closes the channel: the interpreter must outlive it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(main())
