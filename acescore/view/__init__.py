"""The HTML view: a static site of the report and the documents."""
