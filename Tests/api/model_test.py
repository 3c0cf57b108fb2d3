#!/usr/bin/env python3
"""A model-based test of the point-of-sale API (issue 54): PyPI's hypothesis draws sequences of
requests (signed, declined, left to time out), cancels, a second request while one is under way,
GetResult, GetStatus, the export folder failing and coming back, graceful restarts and kill -9,
and drives the offscreen daemon with them through PyPI's varlink client. The customer is the
recording the kiosk plays each time a request shows; another customer restarts the kiosk.

After every step it checks what the point of sale relies on:
- every request gets exactly one final answer: the call's last reply or, when a kill took the
  connection, GetResult after the restart;
- `signed` means the files are in the export folder or in the spool, match what the answer lists,
  and their manifest verifies with openssl against the kiosk's public key;
- GetResult agrees with the answer (`kept` may later read `saved`);
- a request that was not signed has no file anywhere;
- the kiosk is never Busy but for the request under way, which GetStatus shows;
- nothing is written outside the export folder and the spool (and the results file, socket, key
  and log).
At the end the folder is brought back: every signature is written, GetResult says `saved`, and
`signpad verify` passes the whole folder.

SIGNPAD_MODEL_PROFILE=short (the default, CI's: a fixed seed, about a minute) or long (new sequences
each run, a failure shrunk to the shortest; about 15 minutes):

    SIGNPAD=.build/debug/signpad python3 Tests/api/model_test.py
    SIGNPAD_MODEL_PROFILE=long SIGNPAD=.build/debug/signpad python3 Tests/api/model_test.py
"""
import base64
import collections
import functools
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import varlink
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from control_api_test import RECORDING, SIGNPAD, Kiosk, tap_recording  # noqa: E402

PROFILES = {
    "short": settings(max_examples=20, stateful_step_count=20, deadline=None, derandomize=True, database=None,
                      phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck)),
    "long": settings(max_examples=120, stateful_step_count=50, deadline=None, database=None, print_blob=True,
                     suppress_health_check=list(HealthCheck)),
}
PROFILE = os.environ.get("SIGNPAD_MODEL_PROFILE", "short")

# Who stands at the pad: each is a recording played when a request shows.
SIGNS, DECLINES, WALKS_AWAY = "signs", "declines", "walks away"
CUSTOMERS = st.sampled_from([SIGNS, SIGNS, DECLINES, WALKS_AWAY])  # walking away takes the timeout, 5 s
TIMEOUT_SECONDS = 5.0  # the shortest a request takes; a customer who walks away times out after it
ANSWER_WAIT = 30.0  # far beyond any ending's time, on a loaded machine
FINAL = {"signed", "cancelled", "timedOut", "failed"}

tally = collections.Counter()


def reported(step):
    """Prints what failed first, the steps so far and the journal's end before hypothesis replays
    the run: the daemon's timing may make the replay fail elsewhere, and hypothesis then reports
    only that."""
    @functools.wraps(step)
    def run(self, *args, **kwargs):
        try:
            return step(self, *args, **kwargs)
        except BaseException as failure:
            self.report(failure)
            raise
    return run


def evemu_header():
    with open(RECORDING) as demo:
        return [line for line in demo if not line.startswith("E:")]


def stroke_recording(path, width=800, height=480):
    """One quick stroke across the signing box (300 px of ink, a quarter of a second)."""
    def event(t, typ, code, value):
        return f"E: {t:.6f} {typ:04x} {code:04x} {value}\n"
    def at(x, y):
        return x * 4096 // width, y * 4096 // height
    lines = evemu_header()
    x, y = at(200, 300)
    lines += [event(0, 3, 0x2f, 0), event(0, 3, 0x39, 78), event(0, 3, 0x35, x), event(0, 3, 0x36, y),
              event(0, 1, 0x14a, 1), event(0, 3, 0, x), event(0, 3, 1, y), event(0, 0, 0, 0)]
    for step in range(1, 26):
        t = step * 0.01
        x, y = at(200 + step * 12, 300 + (step % 5) * 4)
        lines += [event(t, 3, 0x35, x), event(t, 3, 0x36, y), event(t, 3, 0, x), event(t, 3, 1, y), event(t, 0, 0, 0)]
    lines += [event(0.27, 3, 0x39, -1), event(0.27, 1, 0x14a, 0), event(0.27, 0, 0, 0)]
    with open(path, "w") as out:
        out.writelines(lines)
    return path


def quiet_recording(path):
    """The demo panel, untouched: a customer who walks away."""
    with open(path, "w") as out:
        out.writelines(evemu_header())
    return path


class Call:
    """One RequestSignature with `more`, on a connection of its own, its replies read by a thread."""

    def __init__(self, kiosk, reference):
        self.reference = reference
        self.replies, self.error, self.lost = [], None, None
        self.first, self.ended = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self.run, args=(kiosk,), daemon=True)
        self.thread.start()

    def run(self, kiosk):
        try:
            with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
                for reply in pad.RequestSignature(reference=self.reference, title="Total 12.50 EUR", lines=["I agree to pay"],
                                                  timeoutSeconds=TIMEOUT_SECONDS, _more=True):
                    self.replies.append(reply)
                    self.first.set()
        except varlink.VarlinkError as error:
            self.error = error
        except Exception as gone:  # the daemon went, and the connection with it
            self.lost = gone
        finally:
            self.first.set()
            self.ended.set()

    @property
    def id(self):
        return self.replies[0]["id"]

    def final(self):
        """The last reply if it is a final answer, else None (still under way, or the connection lost)."""
        if self.replies and "status" in self.replies[-1]:
            return self.replies[-1]
        return None


class KioskModel(RuleBasedStateMachine):
    """The kiosk as the point of sale sees it, next to the real one."""

    @initialize(customer=CUSTOMERS)
    def open_the_shop(self, customer):
        self.tmp = tempfile.mkdtemp(prefix="signpad-model-")
        self.folder = os.path.join(self.tmp, "kiosk")  # the daemon's: everything it may write is in here
        self.share = os.path.join(self.folder, "share")
        os.makedirs(self.share)
        self.recordings = {SIGNS: stroke_recording(os.path.join(self.tmp, "stroke.evemu")),
                           DECLINES: tap_recording(os.path.join(self.tmp, "decline.evemu"), 497, 433),
                           WALKS_AWAY: quiet_recording(os.path.join(self.tmp, "quiet.evemu"))}
        self.public_key = os.path.join(self.tmp, "kiosk.pem")
        self.kiosk, self.call = None, None
        self.answers = {}  # id -> its one final answer
        self.answers_since_kill = False
        self.references = {}  # id -> reference
        self.cancelled = set()  # ids whose CancelRequest was accepted
        self.folder_failing = False
        self.references_made = 0
        self.start(customer)
        subprocess.run(["openssl", "pkey", "-in", os.path.join(self.folder, "signing.key"), "-pubout", "-out", self.public_key],
                       check=True, capture_output=True)
        self.steps = []

    # The kiosk's life

    def start(self, customer):
        socket_path = os.path.join(self.folder, "control.sock")
        if os.path.exists(socket_path):
            os.unlink(socket_path)
        self.customer = customer
        self.kiosk = Kiosk(self.folder, confirm=customer == SIGNS, recording=self.recordings[customer],
                           extra=["--set", f'export.directory="{self.exports()}"', "--set", "export.create_directory=true",
                                  "--set", "export.retry_seconds=0.2"]).start()

    def exports(self, now=False):
        """The export folder, as configured; with `now`, where its files are while it is moved away."""
        if now and self.folder_failing:
            return os.path.join(self.folder, "share.away", "out")
        return os.path.join(self.share, "out")

    def pad(self, method, *args):
        with self.kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            return getattr(pad, method)(*args)

    def result(self, request_id):
        """GetResult, asked again while the kiosk is still checking the export folder after a start."""
        deadline = time.time() + ANSWER_WAIT
        while True:
            try:
                return self.pad("GetResult", request_id)
            except varlink.VarlinkError as error:
                if error.error() != "org.signpad.Kiosk.NotReady" or time.time() > deadline:
                    raise
                time.sleep(0.1)

    # Requests

    def begin(self):
        self.references_made += 1
        call = Call(self.kiosk, f"SALE-{self.references_made}")
        assert call.first.wait(ANSWER_WAIT), "RequestSignature: no reply"
        return call

    def take(self, call):
        """A request that showed becomes the one under way."""
        first = call.replies[0]
        assert first.get("progress") == "shown" and "status" not in first, f"the first reply is not shown: {first}"
        assert first["reference"] == call.reference, first
        assert first["id"] not in self.references, f"an id given twice: {first['id']}"
        self.references[first["id"]] = call.reference
        self.call = call
        tally["requests"] += 1

    def settle(self):
        """The request under way gets its final answer: the one its customer gives, or cancelled."""
        call, self.call = self.call, None
        assert call.ended.wait(ANSWER_WAIT), f"{call.id}: no final answer in {ANSWER_WAIT:.0f} s (customer {self.customer})"
        final = call.final()
        assert final is not None, f"{call.id}: the connection ended without a final answer: {call.replies} {call.lost!r}"
        for reply in call.replies[:-1]:
            assert reply.get("progress") in ("shown", "ink", "cleared") and "status" not in reply, f"{call.id}: {reply}"
        assert final["id"] == call.id and final["reference"] == call.reference, final
        if call.id in self.cancelled:
            expected = ("cancelled", None)
        else:
            expected = {SIGNS: ("signed", None), DECLINES: ("cancelled", "declined by the customer"),
                        WALKS_AWAY: ("timedOut", None)}[self.customer]
        assert final["status"] == expected[0], f"{call.id}: answered {final}, expected {expected[0]} (customer {self.customer})"
        if expected[1]:
            assert final.get("reason") == expected[1], final
        self.answered(final)

    def answered(self, answer):
        request_id = answer["id"]
        assert request_id not in self.answers, f"{request_id}: a second final answer {answer}, after {self.answers[request_id]}"
        assert answer["status"] in FINAL, answer
        self.answers[request_id] = answer
        self.answers_since_kill = True
        tally[answer["status"] + (" " + answer["stored"] if "stored" in answer else "")] += 1
        if answer["status"] == "signed":
            self.check_signed(answer)
        else:
            self.check_nothing_kept(request_id)

    # Evidence

    def spooled_files(self, request_id):
        try:
            with open(os.path.join(self.folder, "spool", request_id + ".spool.json"), encoding="utf-8") as spooled:
                return {f["name"]: base64.b64decode(f["base64"]) for f in json.load(spooled)["files"]}
        except FileNotFoundError:
            return None

    def written_files(self, request_id, names):
        folder = self.exports(now=True)
        if names is None and os.path.isdir(folder):
            names = [n for n in os.listdir(folder) if n.startswith(request_id + ".")]
            if not {request_id + ".meta.json", request_id + ".meta.json.sig"} <= set(names):  # the last in
                return None
        if not names or not all(os.path.exists(os.path.join(folder, name)) for name in names):
            return None
        contents = {}
        for name in names:
            with open(os.path.join(folder, name), "rb") as f:
                contents[name] = f.read()
        return contents

    def check_signed(self, answer, saved=False):
        """The files the answer lists are in the folder (or, unless `saved`, in the spool), and verify."""
        request_id = answer["id"]
        manifest = request_id + ".meta.json"
        names = [f["name"] for f in answer["files"]]
        assert names and all(n.startswith(request_id + ".") for n in names), f"{request_id}: answered with files {names}: {answer}"
        assert manifest in names and manifest + ".sig" in names, names
        deadline = time.time() + 5
        while True:
            # The writer puts the files in the folder, then takes them out of the spool: look in both.
            contents = self.written_files(request_id, names) or (None if saved else self.spooled_files(request_id))
            if contents is not None or time.time() > deadline:
                break
            time.sleep(0.05)
        assert contents is not None, f"{request_id}: answered {answer['status']} {answer.get('stored')}, but no files in the folder or the spool"
        names = names or list(contents)
        for f in answer["files"]:
            data = contents[f["name"]]
            assert (len(data), hashlib.sha256(data).hexdigest()) == (f["bytes"], f["sha256"]), f"{f['name']} is not what the answer lists"
        with tempfile.TemporaryDirectory(dir=self.tmp) as scratch:
            for name in (manifest, manifest + ".sig"):
                with open(os.path.join(scratch, name), "wb") as f:
                    f.write(contents[name])
            verified = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", self.public_key, "-rawin",
                                       "-in", os.path.join(scratch, manifest), "-sigfile", os.path.join(scratch, manifest + ".sig")],
                                      capture_output=True, text=True)
        assert verified.returncode == 0, f"{request_id}: openssl does not verify its manifest: {verified.stdout}{verified.stderr}"
        signed_manifest = json.loads(contents[manifest])
        assert signed_manifest["id"] == request_id, f"{manifest} names {signed_manifest['id']}"
        listed = signed_manifest["files"]
        assert set(listed) == set(names) - {manifest, manifest + ".sig"}, f"{manifest} lists {sorted(listed)}, the answer {names}"
        for name, entry in listed.items():
            data = contents[name]
            assert (len(data), hashlib.sha256(data).hexdigest()) == (entry["bytes"], entry["sha256"]), f"{name} is not what its manifest lists"

    def check_nothing_kept(self, request_id):
        kept = [n for n in self.all_names() if n.startswith(request_id + ".") or n.startswith(".signpad-" + request_id + ".")]
        assert not kept, f"{request_id}: answered {self.answers[request_id]}, yet its files are kept: {kept}"

    def all_names(self):
        names = []
        for folder in (self.exports(now=True), os.path.join(self.folder, "spool")):
            if os.path.isdir(folder):
                names += os.listdir(folder)
        return names

    def agrees(self, answer, result):
        disagree = f"GetResult {result} disagrees with the answer {answer}"
        assert (result["id"], result["reference"], result["status"]) == (answer["id"], answer["reference"], answer["status"]), disagree
        if answer["status"] == "signed":
            allowed = ("saved",) if answer["stored"] == "saved" else ("kept", "saved")
            assert result.get("stored") in allowed, disagree
            assert [f["name"] for f in result["files"]] == [f["name"] for f in answer["files"]], disagree

    # Rules

    @precondition(lambda self: self.call is None)
    @rule(customer=CUSTOMERS, wait=st.booleans())
    @reported
    def request_signature(self, customer, wait):
        """A request, and with `wait` its final answer too; a customer other than the kiosk's
        recording restarts it with theirs (SIGTERM), unless signatures wait for the folder: signpad
        then gives them 20 s before it exits, and the customer at the pad stays."""
        if customer != self.customer and self.pad("GetStatus")["unwritten"] == 0:
            self.kiosk.stop()
            self.start(customer)
            tally["restarts for another customer"] += 1
        self.steps.append(f"request{' and wait' if wait else ''}, the customer {self.customer}")
        call = self.begin()
        assert call.error is None, f"RequestSignature with nothing under way: {call.error.error()} {call.error.parameters()}"
        self.take(call)
        if wait:
            self.settle()

    @precondition(lambda self: self.call is not None)
    @rule()
    @reported
    def the_customer_finishes(self):
        self.steps.append("finish")
        self.settle()

    @precondition(lambda self: self.call is not None)
    @rule()
    @reported
    def cancel_request(self):
        self.steps.append("cancel")
        try:
            self.pad("CancelRequest", self.call.id)
            self.cancelled.add(self.call.id)
            tally["cancels accepted"] += 1
        except varlink.VarlinkError as error:
            # The customer ended it first: its own answer must come.
            assert error.error() == "org.signpad.Kiosk.NoSuchRequest", (error.error(), error.parameters())
            assert self.call.ended.wait(ANSWER_WAIT), f"{self.call.id}: NoSuchRequest to CancelRequest, yet no final answer"
        self.settle()

    @precondition(lambda self: self.call is not None)
    @rule()
    @reported
    def another_request_is_busy(self):
        self.steps.append("busy")
        probe = self.begin()
        if probe.error is not None:
            assert probe.error.error() == "org.signpad.Kiosk.Busy", (probe.error.error(), probe.error.parameters())
            assert probe.error.parameters()["id"] == self.call.id, f"Busy with {probe.error.parameters()}, under way: {self.call.id}"
            status = self.pad("GetStatus")
            if "request" not in status:
                assert self.call.ended.wait(5), f"Busy with {self.call.id}, but GetStatus shows no request: {status}"
            tally["busy"] += 1
        else:
            # It showed: the request under way had ended just before.
            assert self.call.ended.wait(5), f"{probe.id} shown while {self.call.id} is under way"
            self.settle()
            self.take(probe)

    @rule()
    @reported
    def get_status(self):
        self.steps.append("status")
        status = self.pad("GetStatus")
        assert status["unwritten"] >= 0, status
        if self.call is None:
            assert "request" not in status, f"GetStatus shows a request nobody made: {status}"
        elif "request" in status:
            assert status["request"]["id"] == self.call.id, f"GetStatus shows {status['request']}, under way: {self.call.id}"
        else:
            assert self.call.ended.wait(5), f"{self.call.id} is under way, but GetStatus shows no request: {status}"

    @rule(data=st.data())
    @reported
    def get_result(self, data):
        self.steps.append("result")
        ids = sorted(self.answers) + ([self.call.id] if self.call else []) + ["NO-SUCH-REQUEST"]
        request_id = data.draw(st.sampled_from(ids), label="id")
        try:
            result = self.result(request_id)
        except varlink.VarlinkError as error:
            if request_id == "NO-SUCH-REQUEST":
                assert error.error() == "org.signpad.Kiosk.NoSuchRequest", (error.error(), error.parameters())
                return
            assert self.call and request_id == self.call.id, f"GetResult({request_id}): {error.error()} {error.parameters()}"
            assert error.error() == "org.signpad.Kiosk.Busy", (error.error(), error.parameters())
            return
        assert request_id != "NO-SUCH-REQUEST", result
        if self.call and request_id == self.call.id:
            # It ended meanwhile: its final answer must agree.
            assert self.call.ended.wait(5), f"GetResult({request_id}) answered {result} while it is under way"
            self.settle()
        self.agrees(self.answers[request_id], result)

    # Two rules, not one toggle: hypothesis leaves some rules out of some runs (swarm testing), so
    # in some the folder fails and stays failed, and signatures queue up behind it.
    @precondition(lambda self: not self.folder_failing)
    @rule()
    @reported
    def the_export_folder_fails(self):
        self.steps.append("folder fails")
        # A file where the folder's parent should be: even root cannot make the folder there.
        os.rename(self.share, os.path.join(self.folder, "share.away"))
        with open(self.share, "w") as blocker:
            blocker.write("a file where the export folder's parent should be\n")
        self.folder_failing = True
        tally["folder failed"] += 1

    @precondition(lambda self: self.folder_failing)
    @rule()
    @reported
    def the_export_folder_comes_back(self):
        self.steps.append("folder back")
        os.unlink(self.share)
        os.rename(os.path.join(self.folder, "share.away"), self.share)
        self.folder_failing = False

    @precondition(lambda self: self.call is not None or self.answers_since_kill)
    @rule(when=st.sampled_from(["as its files appear", "at once"]), customer=CUSTOMERS)
    @reported
    def kill_and_restart(self, when, customer):
        self.steps.append(f"kill -9 {when}, restart for {customer}")
        self.answers_since_kill = False
        call, signer = self.call, self.customer == SIGNS
        if call is not None and when == "as its files appear" and self.customer == SIGNS:
            spooled = os.path.join(self.folder, "spool", call.id + ".spool.json")
            deadline = time.time() + ANSWER_WAIT
            while not (os.path.exists(spooled) or os.path.exists(os.path.join(self.exports(now=True), call.id + ".meta.json"))
                       or call.ended.is_set()):
                assert time.time() < deadline, f"{call.id}: signed, but never spooled nor written"
                time.sleep(0.001)
        self.kiosk.stop(signal.SIGKILL)
        tally["kill -9"] += 1
        if call is not None:
            call.ended.wait(10)
            if call.final() is not None:
                self.settle()  # answered before the kill
        self.start(customer)
        if self.call is not None:
            # Its connection went with the daemon: its answer is GetResult's after the restart.
            self.call = None
            tally["answers lost with the connection"] += 1
            result = self.result(call.id)
            # Signed if the customer had pressed Done (a signature on disk or in the spool is never failed).
            assert result["status"] in (("signed", "failed") if signer else ("failed",)), f"{call.id}: after kill -9 {result}"
            self.answered(result)

    @invariant()
    @reported
    def nothing_is_written_elsewhere(self):
        if not hasattr(self, "steps"):
            return
        signed = {i for i, a in self.answers.items() if a["status"] == "signed"} | ({self.call.id} if self.call else set())
        for path, dirs, files in os.walk(self.folder):
            relative = os.path.relpath(path, self.folder)
            top = relative.split(os.sep)[0]
            if relative == ".":
                allowed = {"log", "control.sock", "signing.key", "requests.json", "spool", "share", "share.away"}
                # .dat.nosync…: Foundation's atomic write of the results file, renamed over it.
                unexpected = [n for n in dirs + files if n not in allowed and not n.startswith(".dat.nosync")]
                assert not unexpected, f"written beside the folders: {unexpected}"
            elif top in ("share", "share.away"):
                if relative == top:
                    assert dirs + files in (["out"], []), f"written beside the export folder: {relative} {dirs + files}"
                else:
                    assert relative == os.path.join(top, "out") and not dirs, f"a folder in the export folder: {relative} {dirs}"
                    for name in files:
                        owner = name.removeprefix(".signpad-").split(".")[0]
                        assert owner in signed, f"{name} in the export folder, but {owner} was not signed ({self.answers.get(owner)})"
            elif top == "spool":
                for name in files:
                    owner = name.removeprefix(".signpad-").split(".")[0]
                    assert owner in signed, f"{name} in the spool, but {owner} was not signed ({self.answers.get(owner)})"

    def report(self, failure):
        """The first failure of the run only: the long profile's shrinking fails again and again."""
        if tally["failures reported"]:
            return
        tally["failures reported"] += 1
        print(f"\nFAILED: {failure!r}\nsteps: {' / '.join(self.steps)}\njournal's end:\n{self.kiosk.journal()[-6000:]}", file=sys.stderr)

    def teardown(self):
        if not hasattr(self, "steps"):
            return
        try:
            if self.call is not None:
                self.settle()
            if self.folder_failing:
                self.the_export_folder_comes_back()
            # Once the folder answers, every signature is written, and read back as saved.
            deadline = time.time() + ANSWER_WAIT
            while (status := self.pad("GetStatus"))["unwritten"] > 0:
                assert time.time() < deadline, f"signatures still unwritten with the folder back: {status}"
                time.sleep(0.1)
            signed = 0
            for request_id, answer in sorted(self.answers.items()):
                result = self.result(request_id)
                self.agrees(answer, result)
                if answer["status"] == "signed":
                    assert result["stored"] == "saved", f"{request_id}: {result}, with the folder back"
                    self.check_signed(result, saved=True)
                    signed += 1
                else:
                    self.check_nothing_kept(request_id)
            spool = os.path.join(self.folder, "spool")
            assert not os.listdir(spool), f"left in the spool: {os.listdir(spool)}"
            if signed:
                checked = subprocess.run([SIGNPAD, "verify", "--key", self.public_key, self.exports()], capture_output=True, text=True)
                assert checked.returncode == 0, checked.stdout + checked.stderr
                assert checked.stdout.count("OK ") == signed, checked.stdout
        except BaseException as failure:
            self.report(failure)
            raise
        finally:
            self.kiosk.stop()
            shutil.rmtree(self.tmp, ignore_errors=True)


class ModelTest(KioskModel.TestCase):
    settings = PROFILES[PROFILE]

    @classmethod
    def tearDownClass(cls):
        print(f"\n  {PROFILE} profile: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())), file=sys.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
