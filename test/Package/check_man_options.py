#!/usr/bin/env python3
"""Checks that the man page documents every option tlc prints in its help.

usage: check_man_options.py TLC MAN_PAGE

Runs `TLC --help`, `TLC explain-partition --help` and `TLC explain-pipeline
--help`, and takes from each the options of its option list (the lines
that start with two spaces and a dash; `-h, --help` gives both names). The
man page must list each one as the tag of an item (.TP) in the matching
part: `tlc --help` in the section OPTIONS, the subcommands in their
subsections of SUBCOMMANDS. Mentions in running text do not count, so an
option is documented where a reader looks for it.

Prints one line per part ("ok PART: N options") and one "MISSING PART: OPT"
line per undocumented option; exits 1 when any is missing.
"""
import re
import subprocess
import sys

OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)")


def help_options(cmd):
    """The option names of a help text's option list, in order."""
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    names = []
    for line in out.splitlines():
        if not re.match(r"^  -", line):
            continue
        # The option column ends at the first run of two spaces.
        column = re.split(r"\s{2,}", line.strip())[0]
        for name in OPTION.findall(column):
            if name not in names:
                names.append(name)
    return names


def roff_text(line):
    """Drops font escapes and turns roff's \\- into a plain hyphen."""
    line = re.sub(r"\\f[BIRP]|\\f\(..|\\c|\\&|\\%", "", line)
    return line.replace("\\-", "-")


def man_items(path):
    """{part: set of option names in .TP tags}; parts are 'SH NAME' / 'SS NAME'."""
    items = {}
    part = None
    tag_next = False
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            m = re.match(r'^\.(SH|SS)\s+"?(.*?)"?\s*$', line)
            if m:
                part = "%s %s" % (m.group(1), roff_text(m.group(2)))
                items.setdefault(part, set())
                tag_next = False
                continue
            if line.startswith(".TP"):
                tag_next = True
                continue
            if tag_next and part:
                tag = roff_text(re.sub(r"^\.(B|I|BR|IR|RB|RI|BI|IB)\s+", "", line))
                items[part].update(OPTION.findall(tag))
                tag_next = False
    return items


def main():
    tlc, man = sys.argv[1], sys.argv[2]
    items = man_items(man)
    parts = [
        ("tlc", [tlc, "--help"], "SH OPTIONS"),
        ("explain-partition", [tlc, "explain-partition", "--help"], "SS tlc explain-partition"),
        ("explain-pipeline", [tlc, "explain-pipeline", "--help"], "SS tlc explain-pipeline"),
    ]
    missing = 0
    for name, cmd, part in parts:
        opts = help_options(cmd)
        if not opts:
            print("MISSING %s: no options found in `%s`" % (name, " ".join(cmd[1:])))
            missing += 1
            continue
        documented = items.get(part)
        if documented is None:
            print("MISSING %s: the man page has no part '%s'" % (name, part))
            missing += 1
            continue
        for opt in opts:
            if opt not in documented:
                print("MISSING %s: %s" % (name, opt))
                missing += 1
        print("ok %s: %d options" % (name, len(opts)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
