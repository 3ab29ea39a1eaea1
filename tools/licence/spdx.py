#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every source file of the repository carries the SPDX line of opbridge's licence (LICENSE, Apache-2.0).

    python3 tools/licence/spdx.py          # lists the files that lack it; exit status 1 if any
    python3 tools/licence/spdx.py --fix    # adds it (after a #! line, if any)

Source files are those git tracks with the suffixes or names below; data (models, audio), docs and
templates that are copied verbatim into generated modules are left alone. .ci/run runs the check.
"""

import pathlib
import subprocess
import sys

IDENTIFIER = "SPDX-License-Identifier: Apache-2.0"
HASH_COMMENT = f"# {IDENTIFIER}\n"
C_COMMENT = f"/* {IDENTIFIER} */\n"
CPP_COMMENT = f"// {IDENTIFIER}\n"
BY_SUFFIX = {
    ".py": HASH_COMMENT,
    ".bzl": HASH_COMMENT,
    ".bazel": HASH_COMMENT,
    ".sh": HASH_COMMENT,
    ".toml": HASH_COMMENT,
    ".bazelrc": HASH_COMMENT,
    ".c": C_COMMENT,
    ".h": C_COMMENT,
    ".ld": C_COMMENT,
    ".cc": CPP_COMMENT,
    ".cmake": HASH_COMMENT,
}
BY_NAME = {"WORKSPACE": HASH_COMMENT, "bazelw": HASH_COMMENT, "run": HASH_COMMENT, "CMakeLists.txt": HASH_COMMENT}


def comment_for(path: pathlib.Path) -> str | None:
    if path.name in BY_NAME and (path.name != "run" or path.parent.name == ".ci"):
        return BY_NAME[path.name]
    return BY_SUFFIX.get(path.suffix)


def missing(paths: list[pathlib.Path]) -> list[pathlib.Path]:
    return [p for p in paths if comment_for(p) and IDENTIFIER not in p.read_text(errors="replace")[:2000]]


def add_identifier(path: pathlib.Path) -> None:
    text = path.read_text()
    comment = comment_for(path)
    assert comment is not None
    if text.startswith("#!"):
        first, _, rest = text.partition("\n")
        path.write_text(f"{first}\n{comment}{rest}")
    else:
        path.write_text(comment + text)


def tracked_files(root: pathlib.Path) -> list[pathlib.Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
    return [root / name for name in listed.decode().split("\0") if name and (root / name).is_file()]


def main(argv: list[str]) -> int:
    root = pathlib.Path(__file__).resolve().parents[2]
    lacking = missing(tracked_files(root))
    if "--fix" in argv:
        for path in lacking:
            add_identifier(path)
        print(f"spdx: added the SPDX line to {len(lacking)} file(s)")
        return 0
    for path in lacking:
        print(f"spdx: {path.relative_to(root)} has no '{IDENTIFIER}' line")
    if lacking:
        print("spdx: run `python3 tools/licence/spdx.py --fix` (docs/emitted_c_api.md, Licence)")
    return 1 if lacking else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
