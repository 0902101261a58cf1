"""python -m warpmem diff BASELINE.json CANDIDATE.json [--all]: the diff of two reports.

Exit status 0 (no differences) or 1 (some), 2 for a usage error, as diff(1).
"""
import sys

from .diff import diff

USAGE = "usage: python -m warpmem diff BASELINE.json CANDIDATE.json [--all]"


def main(argv):
    args = [a for a in argv if a != "--all"]
    if len(args) != 3 or args[0] != "diff":
        print(USAGE, file=sys.stderr)
        return 2
    try:
        d = diff(args[1], args[2], changed_only="--all" not in argv)
    except (OSError, ValueError) as e:
        print(f"warpmem: {e}", file=sys.stderr)
        return 2
    print(d)
    return 1 if d else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
