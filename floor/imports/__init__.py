"""Player lists brought in from spreadsheets: CSV, TSV, a pasted column, or an .xlsx sheet.

``sheet`` reads the bytes into rows of text (the format, the encoding and the delimiter
found, or as the director says); ``columns`` finds the header and which column holds what;
``preview`` turns the rows into the entries ``register_many`` takes, each row flagged with
what is wrong with it (blank, a duplicate, a refusal the rules would give) before anything
is registered.
"""
