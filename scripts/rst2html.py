#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Render pdcm's reStructuredText with plain docutils (scripts/docs.sh).

    rst2html.py OUT_DIR FILE.rst...

Documentation/ is written for the kernel's Sphinx build, so it uses a few
Sphinx constructs that docutils does not know: the toctree directive, the
:doc: role, and the C-domain directives and roles that scripts/kernel-doc
-rst emits.  They are given small stand-ins here (a list of links, a link,
a declaration heading with its body) so that docutils can render the rest;
any other unknown construct is still an error.  Every docutils message of
level WARNING or above is printed and makes the exit status 1.
"""
import io
import os
import sys

from docutils import nodes
from docutils.core import publish_file
from docutils.parsers.rst import Directive, directives, roles


def doc_link(name, text=None):
    return nodes.reference(text or name, text or name, refuri=name + '.html')


class TocTree(Directive):
    """toctree: a bullet list of links to the named documents."""
    has_content = True
    option_spec = {'maxdepth': directives.nonnegative_int,
                   'caption': directives.unchanged,
                   'hidden': directives.flag,
                   'numbered': directives.flag}

    def run(self):
        items = nodes.bullet_list()
        for line in self.content:
            name = line.strip()
            if name:
                items += nodes.list_item('', nodes.paragraph('', '', doc_link(name)))
        return [items]


class CDecl(Directive):
    """c:function, c:struct, ...: the declaration, then its description."""
    required_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def run(self):
        sig = ' '.join(self.arguments[0].split())
        kind = self.name.split(':', 1)[1]
        if kind in ('struct', 'union', 'enum'):
            sig = kind + ' ' + sig
        box = nodes.container(classes=['c-decl', 'c-' + kind])
        head = nodes.paragraph(classes=['c-signature'])
        head += nodes.literal(sig, sig)
        name = sig.split('(')[0].split()[-1].lstrip('*') if sig else kind
        box['ids'].append(nodes.make_id('c-' + name))
        box += head
        body = nodes.block_quote()
        self.state.nested_parse(self.content, self.content_offset, body)
        box += body
        return [box]


def doc_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    if '<' in text and text.endswith('>'):
        label, target = text[:-1].split('<', 1)
        return [doc_link(target.strip(), label.strip())], []
    return [doc_link(text.strip())], []


def c_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    label = text.split('<', 1)[0].strip() if '<' in text else text
    return [nodes.literal(rawtext, label)], []


def setup():
    directives.register_directive('toctree', TocTree)
    for kind in ('function', 'struct', 'union', 'enum', 'enumerator',
                 'macro', 'type', 'var', 'member'):
        directives.register_directive('c:' + kind, CDecl)
    roles.register_local_role('doc', doc_role)
    for kind in ('func', 'type', 'struct', 'union', 'enum', 'macro', 'data',
                 'member', 'var', 'expr'):
        roles.register_local_role('c:' + kind, c_role)


def main(argv):
    out_dir, files = argv[1], argv[2:]
    setup()
    os.makedirs(out_dir, exist_ok=True)
    failed = False
    for src in files:
        name = os.path.splitext(os.path.basename(src))[0]
        msgs = io.StringIO()
        publish_file(source_path=src,
                     destination_path=os.path.join(out_dir, name + '.html'),
                     writer_name='html5',
                     settings_overrides={'warning_stream': msgs,
                                         'report_level': 2,
                                         'halt_level': 5,
                                         'input_encoding': 'utf-8',
                                         'output_encoding': 'utf-8',
                                         'embed_stylesheet': True})
        if msgs.getvalue():
            sys.stderr.write(msgs.getvalue())
            failed = True
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
