#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of docs/tools/excerpts.py, on throw-away repositories in temporary folders.

    python3 tests/test_excerpts.py [-v]     (CTest runs it as docs_excerpts_tool)
"""
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "docs" / "tools" / "excerpts.py"

KERNEL = """\
// A kernel file with two regions.

// [Add]
inline int add(int a, int b)
{
    return a + b;
}
// [Add]

__kernel void twice(__global int* data)
{
    // [Body]
    const int i = get_global_id(0);
    data[i] = add(data[i], data[i]);
    // [Body]
}
"""

PAGE = """\
# A page

The helper:

<!-- excerpt: kernels/demo.cl [Add] -->
```c
inline int add(int a, int b)
{
    return a + b;
}
```

The body, without the indentation it has in the function:

<!-- excerpt: kernels/demo.cl [Body] -->
```c
const int i = get_global_id(0);
data[i] = add(data[i], data[i]);
```

Text after.
"""


class ExcerptToolTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = Path(self.folder.name)
        (self.root / "kernels").mkdir()
        (self.root / "docs").mkdir()
        self.kernel = self.root / "kernels" / "demo.cl"
        self.page = self.root / "docs" / "page.md"
        self.kernel.write_text(KERNEL)
        self.page.write_text(PAGE)

    def tearDown(self):
        self.folder.cleanup()

    def tool(self, mode, *pages):
        result = subprocess.run([sys.executable, str(TOOL), mode, "--root", str(self.root),
                                 *map(str, pages)], capture_output=True, text=True)
        return result.returncode, result.stdout + result.stderr

    def test_matching_excerpts_pass(self):
        status, output = self.tool("check")
        self.assertEqual(status, 0, output)
        self.assertIn("2 excerpts in 1 page match", output)

    def test_changed_excerpt_fails_with_a_diff(self):
        self.kernel.write_text(KERNEL.replace("return a + b;", "return b + a;"))
        status, output = self.tool("check")
        self.assertEqual(status, 1, output)
        self.assertIn("docs/page.md:5: excerpt kernels/demo.cl [Add] differs", output)
        self.assertIn("-    return a + b;", output)
        self.assertIn("+    return b + a;", output)
        self.assertNotIn("[Body] differs", output)

    def test_edited_excerpt_in_the_page_fails(self):
        self.page.write_text(PAGE.replace("data[i] = add", "data[i] = sub"))
        status, output = self.tool("check")
        self.assertEqual(status, 1, output)
        self.assertIn("[Body] differs", output)

    def test_missing_region_fails(self):
        self.page.write_text(PAGE.replace("[Body]", "[Bodies]"))
        status, output = self.tool("check")
        self.assertEqual(status, 1, output)
        self.assertIn("region [Bodies], which kernels/demo.cl does not define", output)
        self.assertIn("[Add], [Body]", output)

    def test_missing_file_fails(self):
        self.page.write_text(PAGE.replace("kernels/demo.cl [Add]", "kernels/gone.cl [Add]"))
        status, output = self.tool("check")
        self.assertEqual(status, 1, output)
        self.assertIn("kernels/gone.cl, which does not exist", output)

    def test_unbalanced_marker_fails_even_when_not_quoted(self):
        (self.root / "kernels" / "other.cl").write_text("// [Open]\nint x;\n")
        status, output = self.tool("check")
        self.assertEqual(status, 1, output)
        self.assertIn("kernels/other.cl:1: region [Open] is opened and never closed", output)

    def test_region_defined_twice_fails(self):
        self.kernel.write_text(KERNEL + "// [Add]\nint y;\n// [Add]\n")
        status, output = self.tool("check")
        self.assertEqual(status, 1, output)
        self.assertIn("region [Add] is defined more than once", output)

    def test_marker_without_a_code_block_fails(self):
        self.page.write_text("<!-- excerpt: kernels/demo.cl [Add] -->\n\nNo block here.\n")
        status, output = self.tool("check")
        self.assertEqual(status, 1, output)
        self.assertIn("is not followed by a fenced code block", output)

    def test_update_fixes_a_stale_excerpt_and_keeps_the_rest(self):
        self.kernel.write_text(KERNEL.replace("return a + b;", "return b + a; // commuted"))
        status, output = self.tool("update")
        self.assertEqual(status, 0, output)
        self.assertIn("updated docs/page.md:5: kernels/demo.cl [Add]", output)
        self.assertEqual(self.page.read_text(),
                         PAGE.replace("return a + b;", "return b + a; // commuted"))
        status, output = self.tool("check")
        self.assertEqual(status, 0, output)

    def test_update_handles_a_region_that_changes_length(self):
        self.kernel.write_text(KERNEL.replace("    return a + b;\n",
                                              "    const int sum = a + b;\n    return sum;\n"))
        self.assertEqual(self.tool("update")[0], 0)
        self.assertEqual(self.tool("check")[0], 0)
        text = self.page.read_text()
        self.assertIn("const int sum = a + b;\n    return sum;\n}\n```", text)
        self.assertTrue(text.endswith("Text after.\n"))

    def test_update_reports_but_cannot_fix_a_missing_region(self):
        self.page.write_text(PAGE.replace("[Body]", "[Bodies]"))
        status, output = self.tool("update")
        self.assertEqual(status, 1, output)
        self.assertIn("[Bodies]", output)

    def test_markers_inside_code_blocks_are_examples_not_excerpts(self):
        self.page.write_text(PAGE + textwrap.dedent("""\
            How to quote a region:

            ````markdown
            <!-- excerpt: kernels/nowhere.cl [Nothing] -->
            ```c
            ```
            ````
            """))
        status, output = self.tool("check")
        self.assertEqual(status, 0, output)

    def test_nested_region_markers_are_left_out_of_the_outer_region(self):
        self.kernel.write_text(KERNEL.replace("// [Add]\n", "// [All]\n// [Add]\n", 1) +
                               "// [All]\n")
        self.page.write_text(PAGE + "\n<!-- excerpt: kernels/demo.cl [All] -->\n```c\n" +
                             KERNEL[KERNEL.index("inline"):].replace("    // [Body]\n", "")
                             .replace("// [Add]\n", "") + "```\n")
        status, output = self.tool("check")
        self.assertEqual(status, 0, output)

    def test_excerpt_indented_under_a_list_item(self):
        self.page.write_text("1. The helper:\n\n   <!-- excerpt: kernels/demo.cl [Add] -->\n"
                             "   ```c\n   inline int add(int a, int b)\n   {\n       return a;\n"
                             "   }\n   ```\n")
        status, output = self.tool("check")
        self.assertEqual(status, 1, output)
        self.assertEqual(self.tool("update")[0], 0)
        self.assertIn("\n       return a + b;\n   }\n   ```\n", self.page.read_text())
        self.assertEqual(self.tool("check")[0], 0)

    def test_pages_can_be_named(self):
        other = self.root / "other.md"
        other.write_text("<!-- excerpt: kernels/demo.cl [Nope] -->\n```\n```\n")
        self.assertEqual(self.tool("check")[0], 0)  # not a default page
        status, output = self.tool("check", other)
        self.assertEqual(status, 1, output)


if __name__ == "__main__":
    unittest.main()
