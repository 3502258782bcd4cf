#!/usr/bin/env python3
"""Installs the build into a scratch prefix and checks the shipped docs: every
relative link (and #anchor) of every page resolves in the installed tree, and
no page cites a document that is not shipped.
Usage: doc-links.py CMAKE BUILD_DIR"""
import os, re, subprocess, sys, tempfile

# Documents the project does not ship; its pages state the facts themselves.
UNSHIPPED = ["backend-lowering-notes", "luisa-dsl-optimization-guide"]


def slug(heading):
    """GitHub's anchor of a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def prose(markdown):
    """The text outside fenced code blocks and code spans."""
    markdown = re.sub(r"^\s*```.*?^\s*```", "", markdown, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", markdown)


def anchors(path):
    text = re.sub(r"^\s*```.*?^\s*```", "", open(path, encoding="utf-8").read(), flags=re.S | re.M)
    return {slug(m) for m in re.findall(r"^#+\s+(.*)$", text, flags=re.M)}


def main():
    cmake, build = sys.argv[1:3]
    with tempfile.TemporaryDirectory() as prefix:
        subprocess.run([cmake, "--install", build, "--prefix", prefix], check=True,
                       stdout=subprocess.DEVNULL)
        roots = [os.path.join(prefix, "share/doc/kernel-tidy"), os.path.join(prefix, "share/kernel-tidy/docs")]
        errors, pages, links = [], 0, 0
        for root in roots:
            for folder, _, files in os.walk(root):
                for name in sorted(f for f in files if f.endswith(".md")):
                    page = os.path.join(folder, name)
                    shown = os.path.relpath(page, prefix)
                    pages += 1
                    text = open(page, encoding="utf-8").read()
                    for doc in UNSHIPPED:
                        if doc in text:
                            errors.append(f"{shown}: cites {doc}, which is not shipped")
                    for target in re.findall(r"\]\(([^)\s]+)\)", prose(text)):
                        if re.match(r"[a-z]+:", target):
                            continue  # a URL
                        links += 1
                        file, _, anchor = target.partition("#")
                        resolved = os.path.normpath(os.path.join(folder, file)) if file else page
                        if not resolved.startswith(prefix + os.sep) or not os.path.exists(resolved):
                            errors.append(f"{shown}: link '{target}' does not resolve in the installed tree")
                        elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                            errors.append(f"{shown}: link '{target}': no heading '#{anchor}'")
        for error in errors:
            print("FAIL:", error)
        if pages == 0:
            print("FAIL: no doc pages installed")
            return 1
        if errors:
            return 1
        print(f"ok: {links} relative links in {pages} installed pages resolve")
        return 0


sys.exit(main())
