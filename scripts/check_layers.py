#!/usr/bin/env python3
"""Fails when a source file includes a layer above its own (docs/architecture.md, "Layers").

Layers, lowest first; a file may include its own layer and those below:
  runtime        runtime/**
  transports     transports/**
  coll-core      collectives/core/**
  coll-family    collectives/{base,adapt,intranode,shm,self,device,han}/**  (in their own order:
                 base < adapt, intranode, shm, device < han; the middle four not each other;
                 self includes no other family)
  coll-service   collectives/{guard,select}/**                     (not each other)
  public-api     collectives/collectives.*, collectives/post_call.*
  one-sided      rma/**                                            (windows: docs/one-sided.md)
  public-header  include/**                                        (the C++ API's headers)
  tools          shim/**, launcher/**, tuner/**, python/**         (shim and launcher not
                                                                      each other)
Each offending line is printed as  file:line: <layer> includes <layer>: #include "..."
Usage: scripts/check_layers.py [repository root]   (python3 only; exit 1 on any violation)
"""

import pathlib
import re
import sys

RANKS = {
    "runtime": 0,
    "transports": 1,
    "coll-core": 2,
    "coll-family": 3,
    "coll-service": 4,
    "public-api": 5,
    "one-sided": 6,
    "public-header": 7,
    "tools": 8,
}
# The families compose upward: HAN's pipelines run base, adapt and intranode sub-collectives on
# host buffers and the device family's node operations on device buffers (han/device_staged.*).
FAMILY_RANKS = {"base": 0, "self": 0, "adapt": 1, "intranode": 1, "shm": 1, "device": 1, "han": 2}
SERVICES = {"guard", "select"}
SOURCE_SUFFIXES = {".hpp", ".cpp", ".h", ".cu", ".cuh"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

# Known upward includes that another part of issue 23 removes, each with the reason. A listed
# include that no longer exists is reported (not failed) so the entry can be deleted.
KNOWN = {}  # (file, included path) pairs allowed to run upward, with the reason; none now


def layer_of(path):
    """(layer, group) of a repository-relative path, or None outside the checked layers."""
    parts = pathlib.PurePosixPath(path).parts
    if not parts:
        return None
    top = parts[0]
    if top == "runtime":
        return ("runtime", "runtime")
    if top == "transports":
        return ("transports", "transports")
    if top == "include":
        return ("public-header", "include")
    if top == "rma":
        return ("one-sided", "rma")
    if top in ("shim", "launcher", "tuner", "python"):
        return ("tools", top)
    if top != "collectives" or len(parts) < 2:
        return None
    if len(parts) == 2:  # collectives/collectives.*, collectives/post_call.*
        return ("public-api", "api")
    sub = parts[1]
    if sub == "core":
        return ("coll-core", "core")
    if sub in FAMILY_RANKS:
        return ("coll-family", sub)
    if sub in SERVICES:
        return ("coll-service", sub)
    return None


def forbidden(source, target):
    """Why `source` may not include `target` (both (layer, group)), or None."""
    (src_layer, src_group), (dst_layer, dst_group) = source, target
    if RANKS[dst_layer] > RANKS[src_layer]:
        return f"{src_layer} includes {dst_layer}"
    if src_layer == dst_layer and src_group != dst_group:
        if src_layer == "coll-family" and FAMILY_RANKS[dst_group] >= FAMILY_RANKS[src_group]:
            return f"{src_group} includes {dst_group} (families: base < adapt, intranode, shm, device < han)"
        if src_layer == "coll-service":
            return f"{src_group} includes {dst_group} (guard and select stand side by side)"
        if {src_group, dst_group} == {"shim", "launcher"}:
            return f"{src_group} includes {dst_group} internals"
    return None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    violations = []
    seen_known = set()
    for top in ("runtime", "transports", "collectives", "rma", "include", "shim", "launcher", "tuner", "python"):
        for file in sorted((root / top).rglob("*")):
            if file.suffix not in SOURCE_SUFFIXES or not file.is_file():
                continue
            rel = file.relative_to(root).as_posix()
            source = layer_of(rel)
            if source is None:
                continue
            lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
            for number, line in enumerate(lines, start=1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                target_path = match.group(1)
                target = layer_of(target_path)
                if target is None:
                    continue
                why = forbidden(source, target)
                if why is None:
                    continue
                if (rel, target_path) in KNOWN:
                    seen_known.add((rel, target_path))
                    continue
                violations.append(f"{rel}:{number}: {why}: {line.strip()}")
    for (rel, target_path), reason in KNOWN.items():
        if (rel, target_path) not in seen_known:
            print(f"note: {rel} no longer includes {target_path}; remove it from KNOWN "
                  f"({reason})")
    for violation in violations:
        print(violation)
    if violations:
        print(f"{len(violations)} include(s) run upward (scripts/check_layers.py explains the layers)")
        return 1
    print("layers: no upward include")
    return 0


if __name__ == "__main__":
    sys.exit(main())
