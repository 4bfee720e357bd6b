"""The lit test format of tlc's suite: lit's ShTest plus FOR-EACH templates.

A test file with a line "# FOR-EACH: at least N GLOB..." is a template: it
becomes one test per file the globs find (named TEMPLATE/FILE, so lit runs
them in parallel like any other tests), with %{each} the file's path and
%{each-name} its name without the extension. The globs may use %S and the
suite's substitutions (%examples, %srcroot). Fewer than N files, or two
files with one name, is a failure of the template itself, so a template
cannot pass on an empty or shrunken glob. Loaded by lit.cfg.py.
"""
import glob
import os
import re

import lit.formats
import lit.Test
import lit.TestRunner

_FOR_EACH = re.compile(r"^\s*#\s*FOR-EACH:(.*)$")
_FOR_EACH_ARGS = re.compile(r"\s*at least (\d+)((\s+\S+)+)\s*$")


class EachTest(lit.Test.Test):
    """One file of a FOR-EACH template: runs the template's RUN lines."""

    def __init__(self, suite, path_in_suite, config, template, item, problem=None):
        super().__init__(suite, path_in_suite, config)
        self.template = template
        self.item = item
        self.problem = problem  # set when the glob came up short

    def getSourcePath(self):
        return self.template


class TlcShTest(lit.formats.ShTest):
    """lit's ShTest plus FOR-EACH templates (see the top of this file)."""

    def getTestsInDirectory(self, suite, path_in_suite, lit_config, local_config):
        for test in super().getTestsInDirectory(suite, path_in_suite, lit_config, local_config):
            with open(test.getSourcePath(), encoding="utf-8", errors="replace") as f:
                lines = [m.group(1) for m in map(_FOR_EACH.search, f) if m]
            if not lines:
                yield test
                continue
            yield from self._expand(test, lines, local_config)

    def _expand(self, test, lines, local_config):
        template = test.getSourcePath()
        args = _FOR_EACH_ARGS.match(lines[0]) if len(lines) == 1 else None
        if not args:
            yield EachTest(test.suite, test.path_in_suite, local_config, template, None,
                           "want one line 'FOR-EACH: at least N GLOB...'")
            return
        want, files = int(args.group(1)), []
        for pattern in args.group(2).split():
            pattern = pattern.replace("%S", os.path.dirname(template))
            for name, value in local_config.substitutions:
                pattern = pattern.replace(name, value)
            files += sorted(glob.glob(pattern))
        names = [os.path.basename(f) for f in files]
        if len(files) < want or len(set(names)) != len(names):
            yield EachTest(test.suite, test.path_in_suite, local_config, template, None,
                           "%s found %d files (%d names), want at least %d with distinct names"
                           % (" ".join(args.group(2).split()), len(files), len(set(names)), want))
            return
        for f in files:
            yield EachTest(test.suite, test.path_in_suite + (os.path.basename(f),), local_config,
                           template, f)

    def execute(self, test, lit_config):
        if not isinstance(test, EachTest):
            return super().execute(test, lit_config)
        if test.problem:
            return lit.Test.Result(lit.Test.FAIL, test.problem)
        name = os.path.splitext(os.path.basename(test.item))[0]
        each = [("%{each-name}", name), ("%{each}", test.item)]
        return lit.TestRunner.executeShTest(test, lit_config, self.execute_external,
                                            each + self.extra_substitutions,
                                            self.preamble_commands)
