"""Writing files: the output layer (whole-or-nothing files, standard output) and the spool of long report text."""
