"""Files written for people and their spreadsheets: the results, a results file in the
layout the public results databases take (Hendon Mob style), and the payout sheet.

Pure: the tournament in, bytes out. Every cell a spreadsheet would run as a formula is
written as text (``cells``).
"""
