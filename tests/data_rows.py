"""data_rows.py - the rows of the project's TSV data (data/edo, data/regressions)
for the Python tests: comment and blank lines skipped, fields split on tabs."""
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def data_rows(path):
    """The fields of each data line of ROOT/path."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return [l.rstrip("\n").split("\t") for l in f if l.strip() and not l.startswith("#")]


def record_problems(path="data/edo/zukou.tsv"):
    """(sfen, [usi]) of each problem of an Edo collection: its position and recorded moves."""
    return [(row[2], row[3].split()) for row in data_rows(path)]


def record_sfen(pid, path="data/edo/zukou.tsv"):
    """The SFEN of one problem of an Edo collection by its id ("zukou-021")."""
    return next(row[2] for row in data_rows(path) if row[0] == pid)
