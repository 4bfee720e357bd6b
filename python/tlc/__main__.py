"""``python3 -m tlc tune FILE --call 'F(ARGS)' [--space NAME=V1,V2 ...]``: the
command line of the autotuner (``tlc tune`` runs this).

    --config '{"block_M": 64, ...}'   a config dict (repeat; the product with --space);
                                      default: the factory's @autotune configs
    --target SM                       sm_90a (default), sm_90, sm_80
    --out FILE                        the tune file (default FILE.tune.yaml)
    --prepare DIR                     only build the candidates' harnesses into DIR (no GPU)
    --run DIR                         only time what --prepare built (on the GPU)
    --jobs N                          candidates built at once (default: every core)
"""
import argparse
import json
import sys

from . import tune
from .build import CompileError


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="tlc tune", description="time every config of a call "
                                     "on the GPU and record the fastest in a tune file")
    parser.add_argument("command", choices=["tune"])
    parser.add_argument("file", nargs="?")
    parser.add_argument("--call")
    parser.add_argument("--space", action="append", default=[], metavar="NAME=V1,V2")
    parser.add_argument("--config", action="append", default=[], metavar="JSON")
    parser.add_argument("--target")
    parser.add_argument("--out")
    parser.add_argument("--prepare", metavar="DIR")
    parser.add_argument("--run", metavar="DIR")
    parser.add_argument("--jobs", type=int, metavar="N", help="parallel builds (default: every core)")
    args = parser.parse_args(argv)
    try:
        if args.run:
            tune.run(args.run, args.out)
            return 0
        if not args.file or not args.call:
            parser.error("tune needs FILE and --call (or --run DIR)")
        configs = []
        for text in args.config:
            config = json.loads(text)
            if not isinstance(config, dict):
                raise tune.TuneError(f"--config '{text}' is not a JSON object")
            configs.append(config)
        space = tune.parse_space(args.space)
        if not configs and not space:  # the factory's own @autotune configs, as tlc evaluates them
            configs = tune.autotune_configs(args.file, args.call, args.target)
        if not configs and not space:
            raise tune.TuneError(f"nothing to tune: {args.call} has no @autotune configs left "
                                 f"to choose; give --space NAME=V1,V2")
        candidates = tune.expand(args.call, space, configs)
        print(f"{len(candidates)} candidates for {args.call}")
        if args.prepare:
            tune.prepare(args.file, args.call, candidates, args.prepare, args.target, args.jobs)
            for c in candidates:
                print(f"{c.status:7} {c.call}" + (f": {c.reason}" if c.reason else ""))
            return 0
        tune.autotune(args.file, args.call, space, configs, args.target, out_path=args.out,
                      jobs=args.jobs)
        return 0
    except (tune.TuneError, CompileError, json.JSONDecodeError) as e:
        print(f"tlc tune: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
