"""The vocabulary: the APF data model, parameter sets, tasks, options, errors and the text rules every layer shares."""
