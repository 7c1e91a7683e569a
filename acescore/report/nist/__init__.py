"""The NIST text report: banners, tables, recognition text, document scores and the -a/-e/-s listings."""
