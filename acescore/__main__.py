from acescore.cli_support import run

run()
