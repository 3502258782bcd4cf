#!/usr/bin/env python3
"""Checks the CI examples of integration/ci as the services would read them:
the GitHub Actions workflow (YAML, the keys GitHub requires and accepts,
pinned actions, least-privilege permissions, the package built once, the
report job always running, the verdict from kernel-tidy's exit code) and the
pre-commit files (hooks, and a `rev` that exists in this repository).
Usage: ci-examples.py SOURCE_DIR"""
import os, re, subprocess, sys
import yaml

errors = []


def check(condition, message):
    if not condition:
        errors.append(message)
    return condition


WORKFLOW_KEYS = {"name", "run-name", "on", "permissions", "env", "defaults", "concurrency", "jobs"}
JOB_KEYS = {"name", "permissions", "needs", "if", "runs-on", "environment", "concurrency", "outputs",
            "env", "defaults", "steps", "timeout-minutes", "strategy", "continue-on-error",
            "container", "services", "uses", "with", "secrets"}
STEP_KEYS = {"id", "if", "name", "uses", "run", "shell", "with", "env", "continue-on-error",
             "timeout-minutes", "working-directory"}
ALLOWED_PERMISSIONS = {"contents": "read", "actions": "read", "security-events": "write"}


def needs_of(job):
    needs = job.get("needs", [])
    return {needs} if isinstance(needs, str) else set(needs)


def steps_of(job):
    return job.get("steps") or []


def runs(job):
    return "\n".join(s.get("run", "") for s in steps_of(job))


def uses(job, action):
    return [s for s in steps_of(job) if s.get("uses", "").split("@")[0] == action]


def check_workflow(path):
    text = open(path).read()
    wf = yaml.safe_load(text)
    # YAML 1.1 reads the key `on` as true.
    if True in wf:
        wf["on"] = wf.pop(True)
    check(set(wf) <= WORKFLOW_KEYS, f"unknown workflow keys {set(wf) - WORKFLOW_KEYS}")
    check("on" in wf and wf["on"], "no `on:` triggers")
    jobs = wf.get("jobs") or {}
    check(jobs, "no jobs")
    check(wf.get("permissions") == {"contents": "read", "actions": "read"},
          f"workflow permissions {wf.get('permissions')}: want contents: read, actions: read")
    check(text.count("${{") == text.count("}}"), "unbalanced ${{ }}")
    for name, job in jobs.items():
        check(set(job) <= JOB_KEYS, f"{name}: unknown keys {set(job) - JOB_KEYS}")
        check("runs-on" in job, f"{name}: no runs-on")
        check(isinstance(job.get("steps"), list) and job["steps"], f"{name}: no steps")
        for need in needs_of(job):
            check(need in jobs, f"{name}: needs unknown job {need}")
        perms = job.get("permissions", wf.get("permissions", {}))
        for scope, level in perms.items():
            check(ALLOWED_PERMISSIONS.get(scope) in (level, "write" if level == "read" else None),
                  f"{name}: permission {scope}: {level} is more than needed")
        for step in steps_of(job):
            check(set(step) <= STEP_KEYS, f"{name}: unknown step keys {set(step) - STEP_KEYS}")
            check(("uses" in step) != ("run" in step), f"{name}: a step needs exactly one of uses/run")
            action = step.get("uses")
            if action and not action.startswith(("./", "docker://")):
                check(re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", action),
                      f"{name}: {action} is not pinned to a commit SHA")
            if "run" in step:
                script = re.sub(r"\$\{\{[^}]*\}\}", "x", step["run"])
                result = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True)
                check(result.returncode == 0, f"{name}: step '{step.get('name')}': {result.stderr.strip()}")

    # The package is built once, by a job that the others need; they install it.
    builders = [n for n, j in jobs.items() if "cpack -G DEB" in runs(j)]
    check(len(builders) == 1, f"the .deb is built by {builders}, not by one job")
    for name, job in jobs.items():
        if name in builders:
            continue
        check("cmake --build" not in runs(job), f"{name}: builds kernel-tidy")
        if "kernel-tidy " in runs(job):
            check(re.search(r"apt-get install .*\.deb", runs(job)), f"{name}: does not install the .deb")
            check(set(builders) <= needs_of(job), f"{name}: does not need {builders}")

    # Shards: the log is uploaded whatever the exit code, then the job ends with it.
    shards = [n for n, j in jobs.items() if "--shard" in runs(j)]
    check(len(shards) == 1, "no sharded lint job")
    for name in shards:
        steps = steps_of(jobs[name])
        lint = [s for s in steps if "kernel-tidy check" in s.get("run", "")]
        check(len(lint) == 1 and "id" in lint[0], f"{name}: the lint step needs an id")
        upload = uses(jobs[name], "actions/upload-artifact")
        check(upload and "always()" in str(upload[0].get("if")), f"{name}: the upload must run if: always()")
        if lint and "id" in lint[0]:
            check(re.search(r"\|\| status=\$\?", lint[0]["run"]) and "GITHUB_OUTPUT" in lint[0]["run"],
                  f"{name}: the lint step must keep kernel-tidy's exit code")
            check(steps[-1].get("run", "").strip() == "exit ${{ steps.%s.outputs.status }}" % lint[0]["id"],
                  f"{name}: the last step must exit with kernel-tidy's exit code")
        check("grep" not in runs(jobs[name]), f"{name}: a verdict from grep")

    # The report job merges and uploads even when shards failed.
    reports = [n for n, j in jobs.items() if uses(j, "github/codeql-action/upload-sarif")]
    check(len(reports) == 1, "no job uploads SARIF")
    for name in reports:
        job = jobs[name]
        check("always()" in str(job.get("if")), f"{name}: must run if: always()")
        check(set(shards) <= needs_of(job), f"{name}: must need the shard job")
        check(job.get("permissions") == ALLOWED_PERMISSIONS,
              f"{name}: permissions {job.get('permissions')}, want {ALLOWED_PERMISSIONS}")
        check("kernel-tidy merge" in runs(job), f"{name}: does not merge the shards")
    for name, job in jobs.items():
        if name not in reports:
            check(job.get("permissions", wf["permissions"]).get("security-events") is None,
                  f"{name}: security-events permission without an upload")
    return len(jobs)


def git(src, *args):
    return subprocess.run(["git", "-C", src, *args], capture_output=True, text=True)


def check_pre_commit(src):
    hooks = yaml.safe_load(open(os.path.join(src, ".pre-commit-hooks.yaml")))
    ids = set()
    for hook in hooks:
        check({"id", "name", "entry", "language"} <= set(hook), f"hook {hook.get('id')}: missing keys")
        ids.add(hook.get("id"))
    config = yaml.safe_load(open(os.path.join(src, "integration/ci/pre-commit-config.example.yaml")))
    note = "not a git checkout: rev not looked up"
    for repo in config["repos"]:
        check({"repo", "rev", "hooks"} <= set(repo), "pre-commit repo entry: missing keys")
        rev = str(repo["rev"])
        check(re.fullmatch(r"[0-9a-f]{40}|v\d+\.\d+\.\d+", rev), f"rev '{rev}': neither a full SHA nor a tag")
        for hook in repo["hooks"]:
            check(hook["id"] in ids, f"example uses unknown hook {hook['id']}")
        if git(src, "rev-parse", "--git-dir").returncode == 0:
            if git(src, "cat-file", "-e", f"{rev}^{{commit}}").returncode == 0:
                check(git(src, "cat-file", "-e", f"{rev}:.pre-commit-hooks.yaml").returncode == 0,
                      f"rev {rev} has no .pre-commit-hooks.yaml")
                note = f"rev {rev[:12]} exists and has .pre-commit-hooks.yaml"
            elif git(src, "rev-parse", "--is-shallow-repository").stdout.strip() == "true":
                note = f"shallow clone: rev {rev[:12]} not looked up"
            else:
                check(False, f"rev {rev} is not a commit or tag of this repository")
    return note


def main():
    src = sys.argv[1]
    jobs = check_workflow(os.path.join(src, "integration/ci/github-actions.yml"))
    note = check_pre_commit(src)
    for e in errors:
        print("FAIL:", e)
    if not errors:
        print(f"ok: github-actions.yml ({jobs} jobs) and the pre-commit files; {note}")
    return 1 if errors else 0


sys.exit(main())
