"""The object-storage path: egmem on ``s3://`` against a real S3 API (moto in server mode).

What this proves (docs/DEPLOY.md "Scaling out" cites it):
- ``bot.app.build`` opens LanceDB on an ``s3://bucket/prefix`` URI with ``storage_options``
  taken from ``EGMEM_STORAGE_*``; ingest, ask and history work, and the tables really are
  objects in the bucket, not files on local disk.
- A second worker with its own, empty local dir (inbox + Tantivy index) sees the same nodes
  and states: its lexical index is rebuilt from LanceDB when it opens.
- A worker that reopens after another worker wrote picks up those nodes in its own index.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.app import build
from bot.settings import Settings
from memory.errors import StoreError
from memory.models import Scope
from memory.service import Egmem
from tests.support.memory import msg, review_thread

boto3 = pytest.importorskip("boto3", reason="boto3 (from moto[server]) is not installed")

KEY_ID = "testing"
SECRET = "testing"
REGION = "us-east-1"


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    """A moto S3 server on 127.0.0.1 (a free port), shared by this module's tests."""
    try:
        from moto.server import ThreadedMotoServer
    except ImportError as exc:
        pytest.skip(f"moto[server] is not installed: {exc}")
    # One log line per S3 request would bury a failure's own output.
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    # start() blocks forever if the server thread dies before it is ready, so wait on it
    # from a helper thread with a deadline instead.
    starter = threading.Thread(target=server.start, daemon=True)
    starter.start()
    starter.join(timeout=15)
    if starter.is_alive():
        pytest.skip("moto server did not start within 15 s")
    try:
        host, port = server.get_host_and_port()
    except Exception as exc:  # noqa: BLE001 - any failure here means "no S3 to test on"
        pytest.skip(f"moto server did not start: {exc}")
    url = f"http://{host}:{port}"
    try:
        _s3(url).list_buckets()
    except Exception as exc:  # noqa: BLE001
        server.stop()
        pytest.skip(f"moto server is not answering at {url}: {exc}")
    yield url
    server.stop()


@pytest.fixture(autouse=True)
def _no_ambient_aws(monkeypatch: pytest.MonkeyPatch) -> None:
    # LanceDB also reads AWS_* from the environment; a developer's real profile or endpoint
    # must not leak into the test (or the test into a real bucket).
    for name in ("AWS_PROFILE", "AWS_ENDPOINT", "AWS_ENDPOINT_URL", "AWS_SESSION_TOKEN",
                 "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_DEFAULT_REGION",
                 "AWS_REGION"):
        monkeypatch.delenv(name, raising=False)


def _s3(endpoint: str):  # type: ignore[no-untyped-def]
    return boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=KEY_ID,
                        aws_secret_access_key=SECRET, region_name=REGION)


@pytest.fixture
def bucket(endpoint: str, request: pytest.FixtureRequest) -> str:
    """A fresh bucket per test, named after the test (S3 names: lowercase, digits, dashes)."""
    name = "egmem-" + re.sub(r"[^a-z0-9]+", "-", request.node.name.lower()).strip("-")[:50]
    _s3(endpoint).create_bucket(Bucket=name)
    return name


def storage_env(endpoint: str) -> dict[str, str]:
    """The deployment's environment for an S3-compatible store (see deploy/.env.example)."""
    return {
        "EGMEM_STORAGE_AWS_ACCESS_KEY_ID": KEY_ID,
        "EGMEM_STORAGE_AWS_SECRET_ACCESS_KEY": SECRET,
        "EGMEM_STORAGE_AWS_ENDPOINT": endpoint,
        "EGMEM_STORAGE_REGION": REGION,
        "EGMEM_STORAGE_ALLOW_HTTP": "true",
    }


def worker(endpoint: str, bucket: str, local: Path) -> Egmem:
    """One stateless bot worker: shared data in the bucket, its own local dir."""
    env = {
        "EGMEM_DATA": f"s3://{bucket}/egmem",
        "EGMEM_EMBEDDER": "hashing",
        "EGMEM_LOCAL_DIR": str(local),
        **storage_env(endpoint),
    }
    return build(Settings.from_env(env))


def keys(endpoint: str, bucket: str) -> list[str]:
    pages = _s3(endpoint).get_paginator("list_objects_v2").paginate(Bucket=bucket)
    return [o["Key"] for page in pages for o in page.get("Contents", [])]


def node_ids(eg: Egmem) -> set[str]:
    return {n.node_id for n in eg.store.find_nodes(Scope())}


def _ask(eg: Egmem, question: str) -> str:
    ans = eg.ask(question, platform="slack", space="T1", user=None, channel="C1")
    return ans.answer + " " + " ".join(c.quote for c in ans.citations)


# ---------------------------------------------------------------------------------------------


def test_settings_map_storage_env_to_lancedb_options(endpoint: str) -> None:
    s = Settings.from_env({"EGMEM_DATA": "s3://b/p", **storage_env(endpoint)})
    assert s.is_remote
    assert dict(s.storage_options) == {
        "aws_access_key_id": KEY_ID, "aws_secret_access_key": SECRET,
        "aws_endpoint": endpoint, "region": REGION, "allow_http": "true",
    }


def test_one_worker_ingests_into_the_bucket_and_answers(
    endpoint: str, bucket: str, tmp_path: Path
) -> None:
    local = tmp_path / "worker-a"
    eg = worker(endpoint, bucket, local)
    try:
        assert eg.submit(review_thread()) == 8
        report = eg.drain()
        assert report.committed == 8 and report.failed == 0
        assert "friday 10am" in _ask(eg, "When is the Atlas design review?").lower()
        states = eg.history("design review", platform="slack", space="T1", user=None,
                            channel="C1")
        state = next(s for s in states if s.value == "Friday 10am")
        assert [e.value for e in state.chain] == ["Thursday at 3 pm", "4 pm", "Friday 10am"]
    finally:
        eg.close()

    stored = keys(endpoint, bucket)
    tables = {k.split("/")[1] for k in stored if k.startswith("egmem/")}
    assert {"nodes.lance", "states.lance", "channels.lance", "meta.lance"} <= tables
    assert any(k.startswith("egmem/nodes.lance/data/") for k in stored)
    # Only the inbox and the lexical index are local; no table was written to disk.
    assert (local / "inbox.sqlite3").is_file() and (local / "lexical").is_dir()
    assert not (local / "lance").exists()
    assert not list(local.rglob("*.lance"))


def test_second_worker_with_empty_local_dir_sees_the_same_memory(
    endpoint: str, bucket: str, tmp_path: Path
) -> None:
    a = worker(endpoint, bucket, tmp_path / "worker-a")
    try:
        a.submit(review_thread())
        a.drain()
        ids_a = node_ids(a)
        states_a = {r["state_id"]: r["value"] for r in a.store.states.listed()}
    finally:
        a.close()

    b_local = tmp_path / "worker-b"
    b = worker(endpoint, bucket, b_local)
    try:
        assert node_ids(b) == ids_a and len(ids_a) == 8
        assert {r["state_id"]: r["value"] for r in b.store.states.listed()} == states_a
        # Tantivy index rebuilt from LanceDB when the store opened.
        assert b.store.lexical.all_ids() == ids_a
        assert b.store.reconcile_lexical() == 0
        hits = b.store.lexical_search("checklist", Scope(space="T1"), k=5)
        assert [h for h, _ in hits] == [n.node_id for n in b.store.find_nodes(Scope())
                                        if n.message_id == "2"]
        assert "friday 10am" in _ask(b, "When is the Atlas design review?").lower()
        # B's inbox is its own: it has not seen A's messages.
        assert b.inbox.count(kind="message") == 0
    finally:
        b.close()


def test_worker_reopening_picks_up_what_another_worker_wrote(
    endpoint: str, bucket: str, tmp_path: Path
) -> None:
    a_local = tmp_path / "worker-a"
    a = worker(endpoint, bucket, a_local)
    try:
        a.submit(review_thread())
        a.drain()
    finally:
        a.close()

    # Worker B owns channel C2 and writes there while A is down.
    b = worker(endpoint, bucket, tmp_path / "worker-b")
    try:
        b.submit([
            msg(20, "Grace", "The Atlas launch party is on March 3", channel="C2",
                channel_name="atlas-social"),
            msg(21, "Heidi", "correction: the launch party moves to March 5", channel="C2",
                channel_name="atlas-social"),
        ])
        assert b.drain().committed == 2
        new = node_ids(b)
    finally:
        b.close()

    a = worker(endpoint, bucket, a_local)
    try:
        assert a.store.lexical.all_ids() == new and len(new) == 10
        ans = a.ask("When is the launch party?", platform="slack", space="T1", user=None,
                    channel="C2")
        assert any(c.channel == "C2" for c in ans.citations)
        assert "march 5" in (ans.answer + " ".join(c.quote for c in ans.citations)).lower()
    finally:
        a.close()


def test_missing_bucket_is_a_store_error(endpoint: str, tmp_path: Path) -> None:
    with pytest.raises(StoreError):
        worker(endpoint, "egmem-no-such-bucket", tmp_path / "w").close()


# ---- the deployment files that configure this path ------------------------------------------
# No container engine or compose plugin runs where the tests run, so these check what can be
# checked without one: the files agree with the code they configure.

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"


def _settings_env_names() -> set[str]:
    """Every environment variable name bot/settings.py reads (literal keys)."""
    src = (ROOT / "bot" / "settings.py").read_text(encoding="utf-8")
    names = set(re.findall(r"""env(?:\.get\(|\[)["']([A-Z][A-Z0-9_]*)["']""", src))
    assert "EGMEM_DATA" in names and "SLACK_BOT_TOKEN" in names  # the pattern still matches
    return names


def test_env_example_lists_every_setting_and_parses(tmp_path: Path) -> None:
    text = (DEPLOY / ".env.example").read_text(encoding="utf-8")
    mentioned = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", text, flags=re.M))
    missing = (_settings_env_names() | {"EGMEM_SECRETS_FILE"}) - mentioned
    assert not missing, f"deploy/.env.example does not document {sorted(missing)}"
    assert any(n.startswith("EGMEM_STORAGE_") for n in mentioned)
    # The uncommented lines, loaded the way egmem loads a secrets file, are valid settings.
    s = Settings.from_env({"EGMEM_SECRETS_FILE": str(DEPLOY / ".env.example")})
    assert s.writer == "offline" and s.embedder == "minilm" and not s.storage_options
    assert s.data == "./data" and s.slack_bot_token is None


def test_dockerfile_copies_only_paths_that_exist() -> None:
    lines = (DEPLOY / "Dockerfile").read_text(encoding="utf-8").splitlines()
    copies = [ln.split()[1:] for ln in lines if ln.startswith("COPY ")]
    sources = [src for args in copies if not args[0].startswith("--from")
               for src in args[:-1]]
    assert sources, "no COPY from the build context found"
    for src in sources:
        assert (ROOT / src).exists(), f"Dockerfile copies {src}, which does not exist"
    # Every package the wheel is built from is copied (pyproject's packages.find include).
    assert {"bot/", "memory/", "adapters/", "pyproject.toml"} <= set(sources)
    joined = "\n".join(lines)
    assert re.search(r"^USER (?!root)\S+", joined, flags=re.M), "final stage must not be root"
    assert 'ENTRYPOINT ["egmem"]' in joined and "EGMEM_DATA=/data" in joined


def test_compose_and_unit_run_the_documented_commands() -> None:
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text(encoding="utf-8"))
    slack, discord = compose["services"]["egmem-slack"], compose["services"]["egmem-discord"]
    for svc in (slack, discord):
        assert svc["env_file"] == ".env" and svc["build"]["dockerfile"] == "deploy/Dockerfile"
        assert (DEPLOY / svc["build"]["context"] / svc["build"]["dockerfile"]).is_file()
    assert discord["profiles"] == ["discord"] and discord["command"][:2] == ["serve", "discord"]
    # Separate volumes: two processes must never share one local data directory.
    vols = {v.split(":")[0] for svc in (slack, discord) for v in svc["volumes"]}
    assert len(vols) == 2 and all(v.endswith(":/data") for s in (slack, discord)
                                  for v in s["volumes"])
    unit = (DEPLOY / "egmem.service").read_text(encoding="utf-8")
    assert "ExecStart=/opt/egmem/bin/egmem serve slack --http" in unit
    assert "EnvironmentFile=/etc/egmem/env" in unit and "StateDirectory=egmem" in unit
    # The CLI accepts exactly the arguments the image and the unit pass.
    from bot.cli import parser

    for argv in (["serve", "slack", "--http", "--host", "0.0.0.0", "--port", "3000"],
                 ["serve", "slack", "--http", "--host", "127.0.0.1", "--port", "3000"],
                 discord["command"]):
        args = parser().parse_args(argv)
        assert args.command == "serve"
