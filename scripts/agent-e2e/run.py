#!/usr/bin/env python3
"""loki-gate inside the real coding agents, end to end, offline.

For each agent (Claude Code, Codex CLI, Gemini CLI, pinned) and scenario
(question, setup, hollow, stuck), run the real CLI headless against its
scripted fake model on 127.0.0.1 (tests/fixtures/agents/fake_*_model.py),
in a fresh temp git repository (the Python project of
tests/integration/agent.rs `project()`), with a fresh HOME, nothing of this
machine's environment (env -i) and PATH = loki-gate's directory first;
then print what the CLI printed (what the person saw), what the hooks sent
the model (from the fake's request log) and PASS/FAIL against what
loki-gate should do. See README.md next to this file.

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "agents"
TARGET = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
if not TARGET.is_absolute():
    TARGET = ROOT / TARGET
HOME_E2E = TARGET / "agent-e2e"

AGENTS = ["claude", "codex", "gemini"]
SCENARIOS = ["question", "setup", "hollow", "stuck"]
PACKAGES = {
    "claude": "@anthropic-ai/claude-code@2.1.332",
    "codex": "@openai/codex@0.171.0",
    "gemini": "@google/gemini-cli@0.61.0",
}
PYTEST = "pytest==9.2.0"

TASK = "add a test for total"
QUESTIONS = [
    "what does total do?",
    "and what does it return for an empty list?",
    "thanks. anything else in the cart module worth knowing?",
]
HOLLOW = "from shop.cart import total\n\n\ndef test_more():\n    total([1])\n"
FIXED = "from shop.cart import total\n\n\ndef test_more():\n    assert total([1]) == 1\n"

# What the hooks write to the model, as loki-gate words it.
CONTEXT = "loki-gate gates this session"
ADVICE = "loki-gate ("
BLOCK = 'loki-gate stopped "done"'
RELAY = "loki-gate has handed this work to"
# What loki-gate says to the person (systemMessage): never for the model.
TELLS = ["loki-gate let ", "loki-gate: ", "loki-gate did not see"]
UNCOMMITTED = "your uncommitted changes lower the bar"
# Where a hook's words end inside a longer string the CLI built.
ENDS = [
    "</system-reminder>",
    "</hook_prompt>",
    "</hook_context>",
    "\n\nStop hook",
    "\n\nPostToolUse",
    "\n\nSessionStart hook",
    "\n\nUserPromptSubmit hook",
]


# --------------------------------------------------------------- the tools


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def npm_prefix():
    prefix = Path(os.environ.get("AGENT_E2E_NPM") or HOME_E2E / "npm")
    bins = prefix / "node_modules" / ".bin"
    missing = [a for a in AGENTS if not (bins / a).exists()]
    if missing:
        log(f"installing {', '.join(PACKAGES[a] for a in missing)} into {prefix}")
        prefix.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                "npm",
                "install",
                "--prefix",
                str(prefix),
                "--no-fund",
                "--no-audit",
                "--silent",
                *(PACKAGES[a] for a in missing),
            ],
            check=True,
        )
    return prefix


def venv():
    """A virtual environment with pytest (the project's tests run in it)."""
    path = Path(os.environ.get("AGENT_E2E_VENV") or HOME_E2E / "venv")
    py = path / "bin" / "python3"
    ok = (
        py.exists()
        and subprocess.run([str(py), "-c", "import pytest"], capture_output=True, check=False).returncode == 0
    )
    if not ok:
        log(f"creating {path} with {PYTEST}")
        subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
        subprocess.run(
            [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", PYTEST], check=True
        )
    return path


def loki_gate(args, out):
    """loki-gate's binary, copied into the run's directory: a rebuild while
    the runs go does not change it under them."""
    if args.loki_gate:
        src = Path(args.loki_gate).resolve()
    else:
        if not args.no_build:
            log("cargo build (waits for the target directory's lock)")
            subprocess.run(["cargo", "build", "--quiet", "--bin", "loki-gate"], cwd=ROOT, check=True)
        src = TARGET / "debug" / "loki-gate"
    bindir = out / "bin"
    bindir.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, bindir / "loki-gate")
    return bindir


def versions(env_path):
    env = {"PATH": env_path, "HOME": "/nonexistent", "TERM": "dumb"}
    out = {}
    for cmd in (
        ["loki-gate", "--version"],
        ["claude", "--version"],
        ["codex", "--version"],
        ["gemini", "--version"],
    ):
        try:
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60, check=False)
            out[cmd[0]] = (r.stdout.strip() or r.stderr.strip()).splitlines()[0]
        except (OSError, subprocess.TimeoutExpired, IndexError) as e:
            out[cmd[0]] = f"? ({e})"
    return out


# ---------------------------------------------------------------- a run


def git(repo, *args, env=None):
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=env
    ).stdout


def project(repo):
    """tests/integration/agent.rs `project()`: a Python project with one
    real test, its config telling evidence how to run the tests."""
    files = {
        ".gitignore": ".pytest_cache/\n__pycache__/\n",
        "README.md": "# shop\n\nA cart.\n",
        ".loki-gate.yaml": "gates:\n  evidence:\n    test-command: python3 -m pytest -q -p no:cacheprovider\n",
        "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
        "shop/__init__.py": "",
        "shop/cart.py": "def total(xs):\n    return sum(xs)\n",
        "tests/test_cart.py": "from shop.cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n",
    }
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "init", "-q", "-b", "main", ".")
    git(repo, "config", "user.email", "dev@example.com")
    git(repo, "config", "user.name", "dev")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")


class Fake:
    def __init__(self, agent, script, run):
        self.port_file = run / "port"
        with open(run / "fake.err", "w") as err:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    str(FIXTURES / f"fake_{agent}_model.py"),
                    "--root",
                    str(run / "repo"),
                    "--port-file",
                    str(self.port_file),
                    "--log",
                    str(run / "requests.jsonl"),
                    "--script",
                    script,
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
            )
        deadline = time.time() + 10
        while not (self.port_file.exists() and self.port_file.read_text().strip()):
            if self.proc.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"the fake model did not start: {(run / 'fake.err').read_text()}")
            time.sleep(0.05)
        self.port = int(self.port_file.read_text())

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def agent_setup(agent, home, repo, port):
    """The agent's HOME and environment for the fake model; its commands."""
    env = {}
    if agent == "claude":
        env.update(
            ANTHROPIC_BASE_URL=f"http://127.0.0.1:{port}",
            ANTHROPIC_API_KEY="sk-ant-dummy",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_AUTOUPDATER="1",
            DISABLE_TELEMETRY="1",
            DISABLE_ERROR_REPORTING="1",
            DISABLE_BUG_COMMAND="1",
        )

        def cmd(prompt, first):
            return ["claude", "-p", prompt, "--permission-mode", "acceptEdits"] + (
                [] if first else ["--continue"]
            )
    elif agent == "codex":
        (home / ".codex").mkdir()
        # gpt-5.5: a model Codex knows, so it offers its apply_patch tool.
        (home / ".codex" / "config.toml").write_text(
            'model = "gpt-5.5"\nmodel_provider = "fake"\ncheck_for_update_on_startup = false\n\n'
            f'[model_providers.fake]\nname = "fake"\nbase_url = "http://127.0.0.1:{port}/v1"\n'
            'wire_api = "responses"\nenv_key = "FAKE_API_KEY"\n'
        )
        env.update(FAKE_API_KEY="sk-fake", RUST_LOG="error")
        # --trust: the project's .codex/ layer (hooks included) is loaded;
        # --dangerously-bypass-hook-trust: hooks not reviewed in the TUI run.
        flags = ["--dangerously-bypass-approvals-and-sandbox", "--trust", "--dangerously-bypass-hook-trust"]

        def cmd(prompt, first):
            return (
                ["codex", "exec", *flags, prompt]
                if first
                else ["codex", "exec", "resume", "--last", *flags, prompt]
            )
    else:
        (home / ".gemini").mkdir()
        (home / ".gemini" / "settings.json").write_text(
            '{ "security": { "auth": { "selectedType": "gemini-api-key" } } }\n'
        )
        # Not --skip-trust: it does not load the project's hooks (Gemini CLI 0.61).
        env.update(
            GEMINI_CLI_TRUST_WORKSPACE="true",
            GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{port}",
            GEMINI_API_KEY="fake-key",
        )

        def cmd(prompt, first):
            return ["gemini", "-p", prompt, "--approval-mode", "yolo"] + (
                [] if first else ["--resume", "latest"]
            )

    return env, cmd


def run_one(agent, scenario, out, path, timeout):
    run = out / f"{agent}-{scenario}"
    repo, home = run / "repo", run / "home"
    repo.mkdir(parents=True)
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\temail = dev@example.com\n\tname = dev\n")
    project(repo)
    base_env = {"PATH": path, "HOME": str(home), "TERM": "dumb"}
    init = subprocess.run(
        ["loki-gate", "init", "--agent", agent],
        cwd=repo,
        env=base_env,
        capture_output=True,
        text=True,
        check=False,
    )
    (run / "init.out").write_text(f"rc={init.returncode}\n--- stdout\n{init.stdout}--- stderr\n{init.stderr}")
    if scenario == "setup":
        # The person's own setup, not committed: init's files, and a
        # config that turns the static gate off.
        with open(repo / ".loki-gate.yaml", "a") as f:
            f.write("  static:\n    enabled: false\n")
    else:
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "loki-gate init")
    script = {"question": "question", "setup": "hollow", "hollow": "hollow", "stuck": "stuck"}[scenario]
    fake = Fake(agent, script, run)
    calls = []
    try:
        env, cmd = agent_setup(agent, home, repo, fake.port)
        env = {**base_env, **env}
        prompts = QUESTIONS if scenario == "question" else [TASK]
        for i, prompt in enumerate(prompts):
            argv = cmd(prompt, i == 0)
            started = time.time()
            try:
                p = subprocess.run(
                    argv,
                    cwd=repo,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    text=True,
                    timeout=timeout,
                    check=False,
                )
                rc, so, se = p.returncode, p.stdout, p.stderr
            except subprocess.TimeoutExpired as e:
                rc = f"timeout {timeout}s"
                so = (
                    (e.stdout or b"").decode("utf-8", "replace")
                    if isinstance(e.stdout, bytes)
                    else (e.stdout or "")
                )
                se = (
                    (e.stderr or b"").decode("utf-8", "replace")
                    if isinstance(e.stderr, bytes)
                    else (e.stderr or "")
                )
            calls.append(
                {
                    "argv": argv,
                    "rc": rc,
                    "stdout": so,
                    "stderr": se,
                    "seconds": round(time.time() - started, 1),
                }
            )
            (run / f"call{i + 1}.txt").write_text(
                f"$ {' '.join(argv)}\nrc={rc}\n--- stdout\n{so}\n--- stderr\n{se}\n"
            )
    finally:
        fake.stop()
    result = analyse(agent, scenario, run, calls)
    (run / "result.json").write_text(json.dumps(result, indent=2) + "\n")
    return result


# ------------------------------------------------------------ what was seen


def strings(value, out):
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, list):
        for v in value:
            strings(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            strings(v, out)
    return out


def model_side(agent, body):
    """The strings of a request that are not the model's own output nor
    the tool definitions: system prompt, user/developer/system messages,
    tool results."""
    out = []
    if agent == "claude":
        strings(body.get("system"), out)
        for m in body.get("messages") or []:
            if m.get("role") != "assistant":
                strings(m.get("content"), out)
    elif agent == "codex":
        strings(body.get("instructions"), out)
        for item in body.get("input") or []:
            if (
                isinstance(item, dict)
                and item.get("role") not in ("assistant",)
                and item.get("type") not in ("function_call", "custom_tool_call", "reasoning")
            ):
                strings(item.get("content") or item.get("output"), out)
    else:
        strings(body.get("systemInstruction"), out)
        for turn in body.get("contents") or []:
            if isinstance(turn, dict) and turn.get("role", "user") == "user":
                strings(turn.get("parts"), out)
    return out


def user_side(agent, body):
    """The strings of the conversation's user messages (what a block becomes)."""
    out = []
    if agent == "claude":
        for m in body.get("messages") or []:
            if m.get("role") == "user":
                c = m.get("content")
                if isinstance(c, str):
                    out.append(c)
                else:
                    out += [
                        str(b.get("text")) for b in c or [] if isinstance(b, dict) and b.get("type") == "text"
                    ]
    elif agent == "codex":
        for item in body.get("input") or []:
            if isinstance(item, dict) and item.get("role") == "user":
                strings(item.get("content"), out)
    else:
        for turn in body.get("contents") or []:
            if isinstance(turn, dict) and turn.get("role", "user") == "user":
                out += [
                    str(p.get("text")) for p in turn.get("parts") or [] if isinstance(p, dict) and "text" in p
                ]
    return out


def segments(text, marker, paragraph=False):
    """Each piece of `text` that starts at `marker`, to where the hook's
    words end (a `paragraph`: at the first blank line)."""
    out = []
    ends = ENDS + (["\n\n"] if paragraph else [])
    start = text.find(marker)
    while start >= 0:
        rest = text[start:]
        end = min([i for i in (rest.find(e) for e in ends) if i > 0] or [len(rest)])
        out.append(rest[:end].strip())
        start = text.find(marker, start + end if end > 0 else start + 1)
    return out


def requests(run):
    path = run / "requests.jsonl"
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out


def main_requests(agent, reqs):
    def is_main(r):
        b = r.get("body") or {}
        return bool(b.get("tools")) and (agent != "gemini" or ":streamGenerateContent" in r.get("path", ""))

    return [r["body"] for r in reqs if is_main(r)]


def count(agent, texts, what):
    """Deliveries of `what` in one request's user messages."""
    needle = {"block": BLOCK, "relay": RELAY}[what]
    if agent == "claude":
        # Claude Code: "Stop hook feedback:\n<reason>" (it repeats the reason
        # in other wrappers; this one is once a block).
        needle = "Stop hook feedback:\n" + needle.split(" ", 2)[0] + " " + needle.split(" ", 2)[1]
    return sum(t.count(needle) for t in texts)


def tail(text, n):
    lines = [l for l in text.rstrip().splitlines()]
    if len(lines) <= n:
        return "\n".join(lines)
    return f"[... {len(lines) - n} lines]\n" + "\n".join(lines[-n:])


def analyse(agent, scenario, run, calls):
    repo = run / "repo"
    reqs = requests(run)
    mains = main_requests(agent, reqs)
    seen = {"context": [], "advice": [], "block": [], "relay": [], "tell": []}
    blocks = relays = 0
    for body in mains:
        texts = model_side(agent, body)
        for t in texts:
            for kind, marker in (
                ("context", CONTEXT),
                ("advice", ADVICE),
                ("block", BLOCK),
                ("relay", RELAY),
            ):
                for s in segments(t, marker, paragraph=kind != "block"):
                    if s not in seen[kind]:
                        seen[kind].append(s)
            for marker in TELLS:
                for s in segments(t, marker, paragraph=True):
                    if s not in seen["tell"]:
                        seen["tell"].append(s)
        users = user_side(agent, body)
        blocks = max(blocks, count(agent, users, "block"))
        relays = max(relays, count(agent, users, "relay"))
    handoffs = sorted(str(p.relative_to(repo)) for p in repo.rglob("handoff.md"))
    state = {}
    kept_prompts = []
    agent_json = next(iter(repo.rglob("agent.json")), None)
    if agent_json:
        try:
            for s in json.loads(agent_json.read_text()).get("sessions", []):
                state[s.get("id", "?")] = {
                    k: s.get(k) for k in ("blocks", "handoffs", "relaying", "told_idle")
                } | {"prompts": len(s.get("prompts") or [])}
                kept_prompts += [str(p.get("text")) for p in s.get("prompts") or []]
        except ValueError:
            state = {"unreadable": str(agent_json)}
    sent = QUESTIONS if scenario == "question" else [TASK]
    handoff_task = None
    if handoffs:
        text = (repo / handoffs[0]).read_text()
        m = re.search(r"## The task\n\n(.*?)\n## ", text, re.DOTALL)
        handoff_task = m.group(1).strip() if m else None
    stdout = "\n".join(c["stdout"] for c in calls)
    stderr = "\n".join(c["stderr"] for c in calls)
    # The CLI's own trace of blocks, where it prints one.
    cli_blocks = None
    if agent == "codex":
        cli_blocks = stderr.count("hook: Stop Blocked")
    elif agent == "gemini":
        cli_blocks = stderr.count("Agent execution blocked")
    # Claude Code keeps hook messages in its transcript (not printed by -p).
    transcript_tells = []
    if agent == "claude":
        for f in (run / "home" / ".claude" / "projects").rglob("*.jsonl"):
            for line in f.read_text().splitlines():
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                att = rec.get("attachment") or {}
                if isinstance(att, dict) and att.get("type") in ("hook_system_message",):
                    msg = str(att.get("content") or att.get("message") or att)
                    if msg not in transcript_tells:
                        transcript_tells.append(msg)
    test_more = repo / "tests" / "test_more.py"
    test = test_more.read_text() if test_more.exists() else None
    last_stdout = calls[-1]["stdout"].strip() if calls else ""
    person_told_uncommitted = {
        "stdout/stderr": UNCOMMITTED in stdout or UNCOMMITTED in stderr,
        **(
            {"claude transcript": any(UNCOMMITTED in t for t in transcript_tells)}
            if agent == "claude"
            else {}
        ),
    }
    hook_texts = seen["context"] + seen["advice"] + seen["block"] + seen["relay"] + seen["tell"]

    checks = []

    def check(ok, what):
        checks.append(("ok" if ok else "FAIL", what))

    rcs = [c["rc"] for c in calls]
    check(all(rc == 0 for rc in rcs), f"the CLI exits 0 (exit codes {rcs})")
    check(len(mains) > 0, f"the model was asked ({len(mains)} requests)")
    check(bool(seen["context"]), "SessionStart's context reached the model")
    check(not seen["tell"], "nothing loki-gate tells the person reached the model")
    if scenario == "question":
        check(blocks == 0, f"0 blocks (model saw {blocks})")
        check(not handoffs, f"no handoff ({handoffs or 'none'})")
        check(test is None, "no file written")
    elif scenario in ("setup", "hollow"):
        check(blocks == 1, f"1 block (model saw {blocks})")
        check(
            all("tests/test_more.py" in b for b in seen["block"]) and seen["block"],
            "the block is about tests/test_more.py",
        )
        check(test == FIXED, "the test was fixed")
        check(not handoffs, f"no handoff ({handoffs or 'none'})")
        if scenario == "hollow":
            check(
                last_stdout.endswith("Done."),
                f"the CLI's last words are the model's \"Done.\" ({last_stdout[-60:]!r})",
            )
        else:
            told = [t for t in hook_texts if ".loki-gate.yaml" in t or "uncommitted" in t]
            check(
                not told,
                "nothing about the person's .loki-gate.yaml reached the model"
                + (f": {told[0][:200]!r}" if told else ""),
            )
    elif scenario == "stuck":
        check(blocks >= 2, f"blocked more than once before the handoff (model saw {blocks})")
        check(".loki-gate/handoff.md" in handoffs, f"handoff.md in .loki-gate/ ({handoffs or 'none'})")
        check(relays >= 1, f"the model was asked to relay the handoff ({relays})")
        path_shown = ".loki-gate/handoff.md" in last_stdout
        check(path_shown, "the CLI's final output holds the handoff's path")
    # Seen, and wrong, but not what the scenario is about: said, not failed.
    notes = []
    odd = [p for p in kept_prompts if p not in sent]
    if odd:
        notes.append(
            f"agent.json keeps {len(odd)} prompt(s) the person did not type (the task is {sent!r}): "
            + "; ".join(repr(short(p, 160)) for p in odd)
        )
    if scenario == "setup" and any(re.search(r"must pass [^:]*\bstatic\b", c) for c in seen["context"]):
        notes.append(
            "SessionStart's context names the static gate, which the person's uncommitted "
            ".loki-gate.yaml turns off (the stop, judged from the session's snapshot, runs without it)"
        )
    if "Agent execution blocked: loki-gate let" in stderr:
        notes.append(
            'the person read "Agent execution blocked: loki-gate let ... stop": Gemini CLI shows a '
            "block's systemMessage in place of its reason"
        )
    if handoff_task is not None and any(
        p not in sent for p in re.findall(r"^> (.*)$", handoff_task, re.MULTILINE) if p
    ):
        notes.append(
            "handoff.md's \"The task\" quotes more than the person's prompt: "
            + repr(short(handoff_task, 400))
        )
    status = "PASS" if all(c[0] == "ok" for c in checks) else "FAIL"
    return {
        "agent": agent,
        "scenario": scenario,
        "status": status,
        "dir": str(run),
        "calls": [
            {k: c[k] for k in ("argv", "rc", "seconds")}
            | {"stdout": tail(c["stdout"], 12), "stderr": tail(c["stderr"], 12)}
            for c in calls
        ],
        "model_requests": len(mains),
        "blocks_seen_by_model": blocks,
        "relays_seen_by_model": relays,
        "blocks_in_cli_output": cli_blocks,
        "model_was_told": seen,
        "handoff": handoffs,
        "agent_json": state,
        "person_told_uncommitted": person_told_uncommitted,
        "claude_transcript_system_messages": transcript_tells if agent == "claude" else None,
        "tests/test_more.py": ("fixed" if test == FIXED else "hollow" if test == HOLLOW else test),
        "init": tail((run / "init.out").read_text(), 15),
        "kept_prompts": kept_prompts,
        "handoff_task": handoff_task,
        "checks": checks,
        "notes": notes,
    }


# ----------------------------------------------------------------- report


def indent(text, pre="      "):
    return "\n".join(pre + l for l in str(text).splitlines()) if text else pre + "(empty)"


def short(text, n=700):
    text = str(text)
    return text if len(text) <= n else text[:n] + f" [... {len(text) - n} chars]"


def report(r):
    lines = [f"=== {r['agent']} / {r['scenario']}: {r['status']}   ({r['dir']})"]
    lines.append(
        "  loki-gate init --agent "
        + r["agent"]
        + (" (not committed)" if r["scenario"] == "setup" else "")
        + ":"
    )
    lines.append(indent(r["init"]))
    for c in r["calls"]:
        lines.append(f"  $ {' '.join(c['argv'])}")
        lines.append(f"    exit {c['rc']} in {c['seconds']} s")
        lines.append("    stdout:")
        lines.append(indent(c["stdout"]))
        lines.append("    stderr:")
        lines.append(indent(c["stderr"]))
    lines.append(
        f"  model requests: {r['model_requests']}; blocks the model saw: {r['blocks_seen_by_model']}"
        + (
            f"; blocks in the CLI's output: {r['blocks_in_cli_output']}"
            if r["blocks_in_cli_output"] is not None
            else ""
        )
        + f"; relay requests: {r['relays_seen_by_model']}"
    )
    told = r["model_was_told"]
    for kind, label in (
        ("context", "SessionStart context"),
        ("advice", "post-edit advice"),
        ("block", "Stop/AfterAgent block reasons"),
        ("relay", "handoff relay"),
        ("tell", "person-only messages that reached the model (should be none)"),
    ):
        if told[kind]:
            lines.append(f"  model was sent, {label} ({len(told[kind])} distinct):")
            for t in told[kind]:
                lines.append(indent(short(t)))
    lines.append(
        f"  handoff.md: {', '.join(r['handoff']) or 'none'}; tests/test_more.py: "
        f"{r['tests/test_more.py'] if r['tests/test_more.py'] is not None else 'absent'}; agent.json: {json.dumps(r['agent_json'])}"
    )
    lines.append(f"  person told of uncommitted lowering: {json.dumps(r['person_told_uncommitted'])}")
    if r.get("claude_transcript_system_messages"):
        lines.append("  Claude transcript, hook systemMessages (the person sees them only interactively):")
        for t in r["claude_transcript_system_messages"]:
            lines.append(indent(short(t)))
    if r.get("handoff_task") is not None:
        lines.append('  handoff.md, "The task":')
        lines.append(indent(short(r["handoff_task"], 1200)))
    for ok, what in r["checks"]:
        lines.append(f"  [{ok}] {what}")
    for note in r.get("notes") or []:
        lines.append(f"  [note] {note}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agents", default=",".join(AGENTS), help="comma-separated: claude,codex,gemini")
    ap.add_argument(
        "--scenarios", default=",".join(SCENARIOS), help="comma-separated: question,setup,hollow,stuck"
    )
    ap.add_argument(
        "--loki-gate",
        default=os.environ.get("LOKI_GATE"),
        help="the binary to test (default: cargo build, target/debug/loki-gate)",
    )
    ap.add_argument("--no-build", action="store_true", help="use target/debug/loki-gate as it is")
    ap.add_argument("--out", help="where the runs go (default target/agent-e2e/runs/<time>)")
    ap.add_argument("--jobs", type=int, default=3, help="runs at once (default 3)")
    ap.add_argument("--timeout", type=int, default=240, help="seconds for each CLI call (default 240)")
    args = ap.parse_args()
    agents = [a for a in args.agents.split(",") if a]
    scenarios = [s for s in args.scenarios.split(",") if s]
    for a in agents:
        if a not in AGENTS:
            ap.error(f"unknown agent {a}")
    for s in scenarios:
        if s not in SCENARIOS:
            ap.error(f"unknown scenario {s}")
    out = (
        Path(args.out) if args.out else HOME_E2E / "runs" / datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    )
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    bindir = loki_gate(args, out)
    npm = npm_prefix()
    env_path = ":".join(
        [
            str(bindir),
            str(venv() / "bin"),
            str(npm / "node_modules" / ".bin"),
            "/usr/local/bin",
            "/usr/bin",
            "/bin",
        ]
    )
    header = [
        f"loki-gate e2e in the real agents, {datetime.datetime.now().isoformat(timespec='seconds')}",
        f"runs in {out}",
        f"PATH={env_path}",
    ]
    for k, v in versions(env_path).items():
        header.append(f"{k}: {v}")
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%h %s"], capture_output=True, text=True, check=False
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no", "--", "src"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    header.append(f"checkout: {commit}" + (" (src/ has uncommitted changes)" if dirty else ""))
    print("\n".join(header), flush=True)
    jobs = [(a, s) for a in agents for s in scenarios]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_one, a, s, out, env_path, args.timeout): (a, s) for a, s in jobs}
        for f in concurrent.futures.as_completed(futures):
            a, s = futures[f]
            try:
                results[(a, s)] = f.result()
            except (
                OSError,
                RuntimeError,
                ValueError,
                subprocess.SubprocessError,
            ) as e:  # a run that could not even start
                results[(a, s)] = {"agent": a, "scenario": s, "status": "FAIL", "error": repr(e)}
            log(f"  {a}/{s}: {results[(a, s)]['status']}")
    text = []
    for key in jobs:
        r = results[key]
        text.append(report(r) if "error" not in r else f"=== {key[0]} / {key[1]}: FAIL ({r['error']})")
    summary = ["", "=== summary"] + [f"  {a:7} {s:9} {results[(a, s)]['status']}" for a, s in jobs]
    body = "\n\n".join(text) + "\n" + "\n".join(summary) + "\n"
    print(body)
    (out / "report.txt").write_text("\n".join(header) + "\n\n" + body)
    (out / "results.json").write_text(json.dumps([results[k] for k in jobs], indent=2) + "\n")
    return 0 if all(results[k]["status"] == "PASS" for k in jobs) else 1


if __name__ == "__main__":
    sys.exit(main())
