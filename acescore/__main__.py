from acescore.entry import run

run()
