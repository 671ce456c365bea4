"""``python -m rummykit.teach build|grade``: build the assignments, grade a class.

python -m rummykit.teach build --course NAME [--masters assignments] [--out build/assignments] [NAME ...]
python -m rummykit.teach grade AUTOGRADER.zip SUBMISSIONS/ --out GRADES/ [--roster FILE]
    [--jobs N] [--timeout S] [--memory MB] [--isolation auto|bubblewrap|process]
    [--written written.csv] [--fresh] [--quiet]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from rummykit.errors import RummyError
from rummykit.teach.assign import ASSIGNMENTS_FOLDER, BUILD, Limits, build, grade


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rummykit.teach",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="the student notebooks and autograder zips")
    make.add_argument("names", nargs="*", help="masters to build (default: all)")
    make.add_argument(
        "--course",
        required=True,
        help="your course and term, such as stat140-2026fall: the salt of every student's "
        "numbers (another course or term gets other numbers)",
    )
    make.add_argument("--masters", type=Path, default=ASSIGNMENTS_FOLDER)
    make.add_argument("--out", type=Path, default=BUILD)
    mark = commands.add_parser("grade", help="grade a folder of submissions")
    mark.add_argument("autograder", type=Path, help="the autograder.zip that build wrote")
    mark.add_argument("submissions", type=Path, help="a folder of STUDENT_ID.ipynb files")
    mark.add_argument(
        "--out",
        type=Path,
        required=True,
        help="the folder to write the grades, feedback and gradebooks in",
    )
    mark.add_argument("--roster", type=Path, help="student IDs, one a line, or a CSV")
    mark.add_argument(
        "--jobs", type=int, default=None, help="notebooks at once (default: every core)"
    )
    mark.add_argument("--timeout", type=float, default=60.0, help="seconds a notebook may run (60)")
    mark.add_argument("--memory", type=int, default=2048, help="MiB a notebook may use (2048)")
    mark.add_argument(
        "--isolation",
        default="auto",
        choices=("auto", "bubblewrap", "process"),
        help="how notebooks are kept apart from the grader (auto: the best here)",
    )
    mark.add_argument(
        "--written", type=Path, help="written.csv with the written questions' points filled in"
    )
    mark.add_argument(
        "--fresh",
        action="store_true",
        help="run every notebook again (by default a run resumes from its journal)",
    )
    mark.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "build":
            built = build(args.masters, args.out, args.names or None, course=args.course)
            for name, (student, autograder) in built.items():
                print(f"{name}: {student} (hand out), {autograder} (grade with)")
        else:
            limits = Limits(seconds=args.timeout, memory=args.memory << 20)
            grade(
                args.autograder,
                args.submissions,
                args.out,
                roster=args.roster,
                jobs=args.jobs,
                limits=limits,
                isolation=args.isolation,
                written=args.written,
                fresh=args.fresh,
                progress=not args.quiet,
                log=print,
            )
    except (RummyError, OSError) as error:
        print(f"rummykit.teach: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
