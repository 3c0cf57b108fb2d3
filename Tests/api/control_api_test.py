#!/usr/bin/env python3
"""The point-of-sale API (org.signpad.Kiosk) driven by an independent peer, PyPI's varlink
client, against the whole daemon on an offscreen display (`signpad run --offscreen`), a
recording standing in for the customer. Run by `swift test` (ControlAPITests); on its own:

    SIGNPAD=.build/debug/signpad python3 Tests/api/control_api_test.py
"""
import base64
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import sys
import threading
import time
import unittest

import varlink

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIGNPAD = os.environ.get("SIGNPAD", os.path.join(ROOT, ".build/debug/signpad"))
RECORDING = os.path.join(ROOT, "demo/signature.evemu")
INTERFACE = os.path.join(ROOT, "varlink/org.signpad.Kiosk.varlink")


def tap_recording(path, x, y, width=800, height=480):
    """A one-finger tap at screen pixel (x, y) on the demo panel (0…4095 both ways)."""
    px, py = x * 4096 // width, y * 4096 // height
    with open(RECORDING) as demo, open(path, "w") as out:
        out.writelines(l for l in demo if not l.startswith("E:"))
        for t, events in [("1.000000", [(3, 0x2f, 0), (3, 0x39, 77), (3, 0x35, px), (3, 0x36, py), (1, 0x14a, 1), (3, 0, px), (3, 1, py)]),
                          ("1.080000", [(3, 0x39, -1), (1, 0x14a, 0)])]:
            for typ, code, value in events + [(0, 0, 0)]:
                out.write(f"E: {t} {typ:04x} {code:04x} {value}\n")
    return path


class Kiosk:
    """One offscreen signpad daemon in a folder of its own."""

    def __init__(self, folder, mode="requested", confirm=True, extra=(), recording=RECORDING):
        self.recording = recording
        self.folder = folder
        self.socket = os.path.join(folder, "control.sock")
        self.exports = os.path.join(folder, "out")
        self.mode, self.confirm, self.extra = mode, confirm, list(extra)
        self.process = None

    def start(self):
        args = [SIGNPAD, "run", "--offscreen", "800x480", "--input-recording", self.recording,
                "--set", f'export.directory="{self.exports}"',
                "--set", f'export.spool_directory="{self.folder}/spool"',
                "--set", f'export.signing_key="{self.folder}/signing.key"',
                "--set", f'control.socket="{self.socket}"', "--set", 'control.group=""',
                "--set", f'control.results="{self.folder}/requests.json"',
                "--set", f'kiosk.mode="{self.mode}"', "--set", 'kiosk.decline_label="Decline"'] + self.extra
        if self.confirm:
            args.append("--confirm-at-end")
        self.log = open(os.path.join(self.folder, "log"), "ab")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=self.log)
        deadline = time.time() + 30
        while not os.path.exists(self.socket):
            if self.process.poll() is not None or time.time() > deadline:
                raise RuntimeError("signpad did not start: " + self.journal())
            time.sleep(0.05)
        return self

    def journal(self):
        with open(os.path.join(self.folder, "log"), encoding="utf-8", errors="replace") as f:
            return f.read()

    def stop(self, sig=signal.SIGTERM):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=30)
        self.log.close()

    def client(self):
        return varlink.Client(address="unix:" + self.socket)


def get_result_once_settled(test, pad, request_id, seconds=20):
    """GetResult after a restart: NotReady while signpad looks for the signature of a request
    under way at the stop, then the result."""
    deadline = time.time() + seconds
    while True:
        try:
            return pad.GetResult(request_id)
        except varlink.VarlinkError as checking:
            test.assertEqual(checking.error(), "org.signpad.Kiosk.NotReady", checking.parameters())
            test.assertLess(time.time(), deadline)
            time.sleep(0.1)


def hold_connections(path, count):
    """Opens `count` connections and leaves them open; returns them and how many signpad closed."""
    held = []
    for _ in range(count):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        held.append(s)
    time.sleep(0.5)
    closed = 0
    for s in held:
        s.settimeout(0.2)
        try:
            closed += s.recv(1) == b""
        except socket.timeout:
            pass
    return held, closed


def raw_call(path, payload, read=True):
    """Sends bytes as they are; returns the decoded reply, or None when signpad hung up."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(path)
        s.sendall(payload)
        if not read:
            return None
        data = b""
        while not data.endswith(b"\0"):
            chunk = s.recv(65536)
            if not chunk:
                return None
            data += chunk
        return json.loads(data[:-1])


NOBODY = 65534  # nobody and nogroup, Debian's uid and gid for "no one in particular"


def as_nobody(work):
    """Runs work() in a forked child as nobody:nogroup (a second member of the control group) and
    returns what it returned, through a pipe as JSON. Only root can change uid. Make varlink.Client
    before: it reads its own files, under root's home."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            out = {"value": work()}
        except BaseException as e:  # pylint: disable=broad-except
            out = {"raised": repr(e)}
        data = json.dumps(out).encode()
        while data:
            data = data[os.write(write_end, data):]
        os._exit(0)
    os.close(write_end)
    chunks = []
    while chunk := os.read(read_end, 65536):
        chunks.append(chunk)
    os.close(read_end)
    os.waitpid(pid, 0)
    out = json.loads(b"".join(chunks))
    if "raised" in out:
        raise AssertionError("as nobody: " + out["raised"])
    return out["value"]


def varlink_error(call):
    """Calls call(); returns (error name, its parameters), or ("", reply) when it succeeded."""
    try:
        return "", call()
    except varlink.VarlinkError as e:
        return e.error(), e.parameters()


def read_replies(s, count, timeout=30):
    """Reads NUL-ended replies from s until count have come; then waits briefly for any extra."""
    data = b""
    deadline = time.time() + timeout
    while data.count(b"\0") < count and time.time() < deadline:
        s.settimeout(max(0.1, deadline - time.time()))
        chunk = s.recv(1 << 20)
        if not chunk:
            break
        data += chunk
    s.settimeout(0.5)
    try:
        while chunk := s.recv(1 << 20):
            data += chunk
    except socket.timeout:
        pass
    return [json.loads(m) for m in data.split(b"\0")[:-1]]


def time_stamp_authority(folder):
    """An RFC 3161 authority made with OpenSSL (a CA, the authority's certificate with the
    timeStamping purpose) behind Tests/tsa/tsa_server.py; returns (process, url, CA file)."""
    os.makedirs(folder)
    run = lambda *args: subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)
    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
        "-subj", "/CN=API test TSA CA", "-days", "30")
    run("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "tsa.key", "-out", "tsa.csr",
        "-subj", "/CN=API test TSA")
    with open(os.path.join(folder, "ext.cnf"), "w") as f:
        f.write("extendedKeyUsage=critical,timeStamping\nkeyUsage=critical,digitalSignature\n")
    run("x509", "-req", "-in", "tsa.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "tsa.pem", "-days", "30",
        "-extfile", "ext.cnf")
    with open(os.path.join(folder, "serial"), "w") as f:
        f.write("01\n")
    with open(os.path.join(folder, "tsa.cnf"), "w") as f:
        f.write(f"""[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
serial = {folder}/serial
crypto_device = builtin
signer_cert = {folder}/tsa.pem
certs = {folder}/tsa.pem
signer_key = {folder}/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
other_policies = 1.2.3.4.2
digests = sha256
accuracy = secs:1
ordering = no
tsa_name = no
ess_cert_id_chain = no
ess_cert_id_alg = sha256
""")
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/tsa/tsa_server.py"), folder], stdout=subprocess.PIPE)
    port = int(server.stdout.readline())
    return server, f"http://127.0.0.1:{port}/", os.path.join(folder, "ca.pem")


class ControlAPITest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="signpad-api-")
        self.kiosks = []

    def tearDown(self):
        for kiosk in self.kiosks:
            kiosk.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def kiosk(self, **kwargs):
        kiosk = Kiosk(self.folder, **kwargs).start()
        self.kiosks.append(kiosk)
        return kiosk

    def test_the_interface_served_is_the_repository_file(self):
        kiosk = self.kiosk()
        with kiosk.client() as client:
            with client.open("org.varlink.service") as service:
                info = service.GetInfo()
                self.assertEqual(info["interfaces"], ["org.varlink.service", "org.signpad.Kiosk"])
                described = service.GetInterfaceDescription("org.signpad.Kiosk")["description"]
        with open(INTERFACE, encoding="utf-8") as f:
            self.assertEqual(described, f.read())
        # The client's own parser reads it (varlink.Interface raises on a bad definition).
        self.assertIn("RequestSignature", varlink.Interface(described).members)

    def test_a_time_stamp_authority_down_delays_no_request_and_its_token_follows(self):
        """Issue 56: with export.timestamp_url, a request is answered when the files are written,
        whatever the authority does; GetStatus counts the tokens awaited; the token follows once
        the authority answers, and OpenSSL and signpad verify accept it."""
        server, url, ca = time_stamp_authority(os.path.join(self.folder, "tsa"))
        try:
            kiosk = self.kiosk(extra=["--set", f'export.timestamp_url="{url}slow"'])
            with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
                started = time.time()
                last = list(pad.RequestSignature(reference="TSA-1", _more=True))[-1]
                answered = time.time() - started
                self.assertEqual(last["status"], "signed")
                deadline = time.time() + 10
                while pad.GetStatus().get("timestampsAwaited") != 1 and time.time() < deadline:
                    time.sleep(0.1)
                self.assertEqual(pad.GetStatus().get("timestampsAwaited"), 1)
            # The recording takes about six seconds; the authority's twenty were not waited for.
            self.assertLess(answered, 20)
            manifest = os.path.join(kiosk.exports, last["id"] + ".meta.json")
            self.assertFalse(os.path.exists(manifest + ".tsr"))
            kiosk.stop()
            self.kiosks.remove(kiosk)
            # The next start, with the authority answering, fetches the token that was awaited.
            kiosk = self.kiosk(extra=["--set", f'export.timestamp_url="{url}"'])
            deadline = time.time() + 30
            while not os.path.exists(manifest + ".tsr") and time.time() < deadline:
                time.sleep(0.1)
            with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
                deadline = time.time() + 10
                while pad.GetStatus().get("timestampsAwaited") != 0 and time.time() < deadline:
                    time.sleep(0.1)
                self.assertEqual(pad.GetStatus().get("timestampsAwaited"), 0)
            verified = subprocess.run(["openssl", "ts", "-verify", "-data", manifest + ".sig", "-in", manifest + ".tsr", "-CAfile", ca],
                                      capture_output=True, text=True)
            self.assertIn("Verification: OK", verified.stdout + verified.stderr)
            key = subprocess.run([SIGNPAD, "key", "show", "--set", f'export.signing_key="{self.folder}/signing.key"'],
                                 capture_output=True, check=True).stdout
            with open(os.path.join(self.folder, "kiosk.pem"), "wb") as f:
                f.write(key)
            checked = subprocess.run([SIGNPAD, "verify", "--key", os.path.join(self.folder, "kiosk.pem"), "--tsa-ca", ca, manifest],
                                     capture_output=True, text=True)
            self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
            self.assertIn("time-stamped 20", checked.stdout)
            self.assertIn("time stamp received", kiosk.journal())
        finally:
            server.kill()
            server.wait()
            server.stdout.close()

    def test_a_signed_request_streams_progress_and_names_files_that_exist(self):
        kiosk = self.kiosk()
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            replies = list(pad.RequestSignature(reference="SALE 7/42", title="Total 12.50 EUR", lines=["Card ****1234", "I agree to pay"],
                                                signer="Ada", reason="payment", documentSha256="AB" * 32, returnImage=True, _more=True))
            result = pad.GetResult(replies[-1]["id"])
        self.assertEqual([r.get("progress") for r in replies[:-1]], ["shown", "ink"])
        last = replies[-1]
        self.assertEqual((last["status"], last["stored"], last["reference"]), ("signed", "saved", "SALE 7/42"))
        self.assertTrue(last["id"].startswith("SALE_7_42_"), last["id"])
        names = [f["name"] for f in last["files"]]
        self.assertTrue(all(n.startswith(last["id"] + ".") for n in names), names)
        for f in last["files"]:
            with open(os.path.join(kiosk.exports, f["name"]), "rb") as data:
                content = data.read()
            self.assertEqual((len(content), hashlib.sha256(content).hexdigest()), (f["bytes"], f["sha256"]), f["name"])
        with open(os.path.join(kiosk.exports, last["id"] + ".png"), "rb") as png:
            self.assertEqual(base64.b64decode(last["image"]), png.read())
        with open(os.path.join(kiosk.exports, last["id"] + ".meta.json"), encoding="utf-8") as meta:
            request = json.load(meta)["request"]
        self.assertEqual(request, {"reference": "SALE 7/42", "title": "Total 12.50 EUR", "lines": ["Card ****1234", "I agree to pay"],
                                   "signer": "Ada", "reason": "payment", "documentSha256": "ab" * 32})
        self.assertEqual((result["status"], result["files"]), ("signed", last["files"]))
        # libxml2 reads the request back out of the InkML, in the order shown.
        inkml = os.path.join(kiosk.exports, last["id"] + ".inkml")
        def annotations(kind):
            out = subprocess.run(["xmllint", "--xpath", f"//*[local-name()='annotation'][@type='{kind}']/text()", inkml],
                                 capture_output=True, text=True)
            return out.stdout.splitlines()
        self.assertEqual(annotations("reference"), ["SALE 7/42"])
        self.assertEqual(annotations("title") + annotations("line"), ["Total 12.50 EUR", "Card ****1234", "I agree to pay"])
        self.assertEqual(annotations("documentSha256"), ["ab" * 32])
        svg = subprocess.run(["xmllint", "--xpath", "//*[local-name()='desc']/text()", os.path.join(kiosk.exports, last["id"] + ".svg")],
                             capture_output=True, text=True).stdout
        self.assertIn("Reference: SALE 7/42", svg)
        self.assertIn("Shown: Total 12.50 EUR\n  Card ****1234\n  I agree to pay", svg)

    def test_the_status_names_the_key_whose_signature_openssl_verifies(self):
        kiosk = self.kiosk()
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            result = pad.RequestSignature(reference="EV-1", documentSha256="cd" * 32)
            status = pad.GetStatus()
        key = subprocess.run([SIGNPAD, "key", "show", "--set", f'export.signing_key="{self.folder}/signing.key"'],
                             capture_output=True, text=True, check=True)
        pem = os.path.join(self.folder, "kiosk.pem")
        with open(pem, "w", encoding="utf-8") as f:
            f.write(key.stdout)
        der = subprocess.run(["openssl", "pkey", "-pubin", "-in", pem, "-outform", "DER"], capture_output=True, check=True).stdout
        fingerprint = hashlib.sha256(der).hexdigest()
        self.assertEqual(status["signingKey"], fingerprint, "GetStatus names the key")
        self.assertIn(fingerprint, key.stderr)
        self.assertIn(fingerprint, kiosk.journal(), "the journal names it at start")
        self.assertNotIn("recipientCertificate", status)
        self.assertNotIn("certificateExpires", status)
        manifest = os.path.join(kiosk.exports, result["id"] + ".meta.json")
        verified = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", pem, "-rawin", "-in", manifest,
                                   "-sigfile", manifest + ".sig"], capture_output=True, text=True)
        self.assertEqual(verified.returncode, 0, verified.stdout + verified.stderr)
        checked = subprocess.run([SIGNPAD, "verify", "--key", pem, kiosk.exports], capture_output=True, text=True)
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        self.assertTrue(checked.stdout.startswith("OK      " + manifest), checked.stdout)

    def test_the_status_says_when_the_certificate_expires_and_the_journal_warns_ahead(self):
        certificate = os.path.join(self.folder, "office.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", os.path.join(self.folder, "office.key"), "-out", certificate, "-days", "10", "-subj", "/CN=Back office"],
                       capture_output=True, check=True)
        end = subprocess.run(["openssl", "x509", "-in", certificate, "-noout", "-enddate", "-dateopt", "iso_8601"],
                             capture_output=True, text=True, check=True).stdout
        expires = end.strip().removeprefix("notAfter=").replace(" ", "T").replace("Z", ".000Z")
        kiosk = self.kiosk(extra=["--set", f'export.recipient_certificate="{certificate}"'])
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            status = pad.GetStatus()
        self.assertEqual(status.get("certificateExpires"), expires, status)
        self.assertIn("recipient certificate expires soon", kiosk.journal())
        self.assertIn(f"expires={expires}", kiosk.journal())

    def short_certificate(self, name, seconds):
        """A back office's certificate (and key) that ends `seconds` from now, made by OpenSSL's CA
        command (`req -x509` makes none that ends within a day); returns its paths and its end."""
        ca = os.path.join(self.folder, name)
        os.mkdir(ca)
        with open(os.path.join(ca, "ca.cnf"), "w") as f:
            f.write(f"[ca]\ndefault_ca = c\n[c]\ndatabase = {ca}/index.txt\nnew_certs_dir = {ca}\nserial = {ca}/serial\n"
                    "default_md = sha256\npolicy = any\nunique_subject = no\n[any]\ncommonName = supplied\n")
        open(os.path.join(ca, "index.txt"), "w").close()
        with open(os.path.join(ca, "serial"), "w") as f:
            f.write("01\n")
        subprocess.run(["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", f"{ca}/office.key",
                        "-out", f"{ca}/office.csr", "-subj", "/CN=Short office"], capture_output=True, check=True)
        ends = time.time() + seconds
        subprocess.run(["openssl", "ca", "-batch", "-notext", "-config", f"{ca}/ca.cnf", "-selfsign", "-keyfile", f"{ca}/office.key",
                        "-in", f"{ca}/office.csr", "-out", f"{ca}/office.pem", "-startdate", time.strftime("%Y%m%d%H%M%SZ", time.gmtime(ends - 3600)),
                        "-enddate", time.strftime("%Y%m%d%H%M%SZ", time.gmtime(ends))], capture_output=True, check=True)
        return f"{ca}/office.pem", f"{ca}/office.key", int(ends)

    def delayed_recording(self, seconds):
        """The demo signature, its first touch `seconds` after the recording starts."""
        path = os.path.join(self.folder, f"delayed-{seconds}.evemu")
        with open(RECORDING) as demo, open(path, "w") as out:
            started = False
            for line in demo:
                if line.startswith("E: ") and not started:
                    # Played from its first event: an empty frame at 0 starts the clock.
                    out.write("E: 0.000000 0000 0000 0\n")
                    started = True
                if line.startswith("E: "):
                    _, t, rest = line.split(" ", 2)
                    line = f"E: {float(t) + seconds:.6f} {rest}"
                out.write(line)
        return path

    def test_once_the_certificate_expires_requests_are_not_ready_and_the_journal_says_so(self):
        certificate, _, ends = self.short_certificate("ca", 4)
        kiosk = self.kiosk(extra=["--set", f'export.recipient_certificate="{certificate}"'])
        time.sleep(max(0, ends + 1.5 - time.time()))
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            with self.assertRaises(varlink.VarlinkError) as refused:
                pad.RequestSignature(reference="LATE-1")
        self.assertEqual(refused.exception.error(), "org.signpad.Kiosk.NotReady")
        self.assertIn("expired on", json.dumps(refused.exception.parameters()))
        self.assertIn("recipient certificate expired", kiosk.journal())
        self.assertEqual(os.listdir(kiosk.exports) if os.path.isdir(kiosk.exports) else [], [])

    def test_once_the_certificate_expires_a_walk_up_kiosk_takes_no_signature(self):
        """A signature that could be neither sealed nor written is not asked for: the walk-up
        customer who comes after the certificate's end finds the kiosk out of service, and nothing
        is held in memory to be lost at the next stop."""
        certificate, _, _ = self.short_certificate("ca", 5)
        started = time.time()
        kiosk = self.kiosk(mode="walk-up", recording=self.delayed_recording(12),
                           extra=["--set", f'export.recipient_certificate="{certificate}"'])
        # The demo's strokes from 13 s to 18.5 s after the start, then Done.
        time.sleep(max(0, started + 22 - time.time()))
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            status = pad.GetStatus()
        self.assertEqual(status["unwritten"], 0, "no signature taken, so none held")
        self.assertIn("out of service", kiosk.journal())
        self.assertNotIn("not written", kiosk.journal())

    def test_a_signature_refused_its_seal_is_sealed_by_the_reload_and_written(self):
        """A request asked before the certificate's end and signed after it: its seal is refused
        and it is held in memory. The reload that brings the back office's new certificate seals
        it, the spool keeps it, and the new start writes it; GetResult says signed."""
        certificate, _, ends = self.short_certificate("ca", 6)
        kiosk = self.kiosk(recording=self.delayed_recording(9), extra=["--set", f'export.recipient_certificate="{certificate}"'])
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            result = pad.RequestSignature(reference="LATE-2")
        self.assertGreater(time.time(), ends, "signed after the certificate's end")
        self.assertEqual((result["status"], result["stored"]), ("signed", "held"), result)
        renewed, renewed_key, _ = self.short_certificate("renewed", 3600)
        shutil.copy(renewed, certificate)
        kiosk.process.send_signal(signal.SIGHUP)
        deadline = time.time() + 60
        while True:
            self.assertLess(time.time(), deadline, kiosk.journal())
            try:
                with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
                    again = pad.GetResult(result["id"])
                if os.path.exists(os.path.join(kiosk.exports, result["id"] + ".meta.json")):
                    break
            except (varlink.VarlinkError, OSError, ConnectionError):
                pass
            time.sleep(0.3)
        self.assertEqual(again["status"], "signed", again)
        self.assertIn("sealing held signatures", kiosk.journal())
        sealed = os.path.join(kiosk.exports, result["id"] + ".inkml.p7m")
        opened = subprocess.run(["openssl", "cms", "-decrypt", "-inform", "DER", "-in", sealed, "-recip", renewed, "-inkey", renewed_key],
                                capture_output=True)
        self.assertEqual(opened.returncode, 0, opened.stderr)
        self.assertIn(b"<ink", opened.stdout)

    def test_a_dropped_connection_leaves_the_request_to_finish_and_its_result_waits(self):
        kiosk = self.kiosk()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(kiosk.socket)
            s.sendall(json.dumps({"method": "org.signpad.Kiosk.RequestSignature", "parameters": {"reference": "D1"}, "more": True}).encode() + b"\0")
            shown = json.loads(s.recv(65536).split(b"\0")[0])["parameters"]
        # The point of sale is gone; the customer signs on (the recording, then Done).
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            deadline = time.time() + 30
            while True:
                try:
                    result = pad.GetResult(shown["id"])
                    break
                except varlink.VarlinkError as busy:
                    self.assertEqual(busy.error(), "org.signpad.Kiosk.Busy")
                    self.assertLess(time.time(), deadline)
                    time.sleep(0.2)
        self.assertEqual((result["status"], result["stored"]), ("signed", "saved"))
        self.assertIn("control client hung up", kiosk.journal())

    def test_a_signature_the_folder_cannot_take_is_kept_in_the_spool_and_said_so(self):
        blocker = os.path.join(self.folder, "not-a-folder")
        open(blocker, "w").close()
        kiosk = self.kiosk(extra=["--set", f'export.directory="{blocker}/out"'])
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            result = pad.RequestSignature(reference="K9")
        self.assertEqual((result["status"], result["stored"]), ("signed", "kept"))
        self.assertIn("not in the export folder yet", result["reason"])
        self.assertEqual(len(result["files"]), 6, "the files it will be, hashes and all, the manifest's signature with them")
        with open(os.path.join(self.folder, "spool", result["id"] + ".spool.json"), encoding="utf-8") as spooled:
            kept = json.load(spooled)["files"]
        self.assertEqual([f["name"] for f in kept], [f["name"] for f in result["files"]], "the spool holds the files the result names")
        manifest = json.loads(base64.b64decode(kept[-1]["base64"]))
        self.assertEqual(manifest["request"]["reference"], "K9")

    def test_the_customer_declines(self):
        # KioskLayout on 800x480 with Undo and Decline: four buttons of 175 px, Decline from x 410.
        tap = tap_recording(os.path.join(self.folder, "tap-decline.evemu"), 497, 433)
        kiosk = self.kiosk(confirm=False, recording=tap)
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            result = pad.RequestSignature(reference="NO-1", title="Total 12.50 EUR")
        self.assertEqual((result["status"], result["reason"]), ("cancelled", "declined by the customer"))
        self.assertFalse(os.path.exists(kiosk.exports) and os.listdir(kiosk.exports), "nothing saved")

    def test_in_walk_up_mode_a_request_takes_the_pad_over(self):
        kiosk = self.kiosk(mode="walk-up")
        deadline = time.time() + 30
        while not (os.path.isdir(kiosk.exports) and any(n.endswith(".meta.json") for n in os.listdir(kiosk.exports))):
            self.assertLess(time.time(), deadline, "the walk-up customer's signature was not saved")
            time.sleep(0.2)
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            self.assertEqual(pad.GetStatus()["mode"], "walkUp")
            result = pad.RequestSignature(reference="W1", lines=["Room 12, two nights"])
        self.assertEqual(result["status"], "signed")
        metas = sorted(n for n in os.listdir(kiosk.exports) if n.endswith(".meta.json"))
        self.assertEqual(len(metas), 2)
        self.assertEqual(len([n for n in metas if n.startswith("W1_")]), 1, metas)

    def test_busy_cancel_and_status(self):
        kiosk = self.kiosk(confirm=False)
        answers = []
        with kiosk.client() as client:
            def waiting():
                with client.open("org.signpad.Kiosk") as pad:
                    answers.append(pad.RequestSignature(reference="R1", title="Sign, please"))
            thread = threading.Thread(target=waiting)
            thread.start()
            with client.open("org.signpad.Kiosk") as pad:
                deadline = time.time() + 10
                while "request" not in (status := pad.GetStatus()) and time.time() < deadline:
                    time.sleep(0.05)
                self.assertEqual(status["request"]["reference"], "R1")
                self.assertEqual((status["mode"], status["display"]), ("requested", "offscreen 800x480"))
                with self.assertRaises(varlink.VarlinkError) as busy:
                    pad.RequestSignature(reference="R2")
                self.assertEqual(busy.exception.error(), "org.signpad.Kiosk.Busy")
                self.assertEqual(busy.exception.parameters()["id"], status["request"]["id"])
                pad.CancelRequest(status["request"]["id"])
                thread.join(10)
                self.assertEqual(answers[0]["status"], "cancelled")
                self.assertEqual(pad.GetResult(status["request"]["id"])["status"], "cancelled")
                self.assertNotIn("request", pad.GetStatus())
                with self.assertRaises(varlink.VarlinkError) as unknown:
                    pad.CancelRequest(status["request"]["id"])
                self.assertEqual(unknown.exception.error(), "org.signpad.Kiosk.NoSuchRequest")
        self.assertEqual(os.listdir(kiosk.exports) if os.path.exists(kiosk.exports) else [], [], "nothing saved")

    def test_a_request_nobody_signs_times_out(self):
        kiosk = self.kiosk(confirm=False)
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            began = time.time()
            result = pad.RequestSignature(reference="T1", timeoutSeconds=5)
        self.assertEqual(result["status"], "timedOut")
        # The recording's strokes were activity; the timeout counts from the last of them.
        self.assertGreaterEqual(time.time() - began, 5)

    def test_values_out_of_range_are_typed_errors_naming_the_parameter(self):
        kiosk = self.kiosk()
        cases = [
            (dict(reference=""), "reference"),
            (dict(reference="x" * 65), "reference"),
            (dict(reference="bad\nline"), "reference"),
            (dict(reference="R", documentSha256="1234"), "documentSha256"),
            (dict(reference="R", timeoutSeconds=1.0), "timeoutSeconds"),
            (dict(reference="R", lines=["a line"] * 40), "lines"),
            (dict(reference="R", title="t" * 201), "title"),
        ]
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            for parameters, name in cases:
                with self.assertRaises(varlink.VarlinkError) as refused:
                    pad.RequestSignature(**parameters)
                self.assertEqual(refused.exception.error(), "org.signpad.Kiosk.InvalidParameter", parameters)
                self.assertEqual(refused.exception.parameters()["parameter"], name)
                self.assertTrue(refused.exception.parameters()["expected"])
            self.assertNotIn("request", pad.GetStatus(), "nothing was shown")

    def test_malformed_calls_get_varlink_errors(self):
        kiosk = self.kiosk()
        def call(message):
            return raw_call(kiosk.socket, json.dumps(message).encode() + b"\0")
        self.assertEqual(call({"method": "org.signpad.Kiosk.Nope"})["error"], "org.varlink.service.MethodNotFound")
        self.assertEqual(call({"method": "com.example.Other.Do"})["error"], "org.varlink.service.InterfaceNotFound")
        wrong = call({"method": "org.signpad.Kiosk.RequestSignature", "parameters": {"reference": 42}})
        self.assertEqual((wrong["error"], wrong["parameters"]), ("org.varlink.service.InvalidParameter", {"parameter": "reference"}))
        typo = call({"method": "org.signpad.Kiosk.RequestSignature", "parameters": {"reference": "R", "titel": "x"}})
        self.assertEqual((typo["error"], typo["parameters"]), ("org.varlink.service.InvalidParameter", {"parameter": "titel"}))
        self.assertEqual(call({"method": "org.signpad.Kiosk.GetResult", "parameters": {}})["parameters"], {"parameter": "id"})

    def test_bad_clients_are_dropped_and_the_kiosk_goes_on(self):
        kiosk = self.kiosk()
        self.assertIsNone(raw_call(kiosk.socket, b"{not json\0"), "garbage: hung up")
        self.assertIsNone(raw_call(kiosk.socket, b"[1, 2]\0"), "not an object: hung up")
        self.assertIsNone(raw_call(kiosk.socket, b'{"method": "' + b"x" * 70000), "past 64 KiB: hung up")
        # More connections than one user's share (half the limit): the extra ones are closed at once,
        # the kiosk answers on.
        held, closed = hold_connections(kiosk.socket, 40)
        self.assertEqual(closed, 40 - 16, "connections past the user's share are refused")
        for s in held:
            s.close()
        time.sleep(0.3)
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            self.assertEqual(pad.RequestSignature(reference="after")["status"], "signed")
        journal = kiosk.journal()
        self.assertIn("too many connections", journal)
        self.assertIn("a message that is not JSON", journal)

    def test_a_flood_of_bad_clients_holds_up_no_ink(self):
        """Hundreds of connections, garbage, half messages and a client that never reads its replies,
        all while a walk-up customer signs: the signature comes out the same, and no event waits on
        them (the daemon's latency report; a client that could block the loop would add seconds)."""
        def signed(flood):
            folder = tempfile.mkdtemp(prefix="signpad-flood-", dir=self.folder)
            kiosk = Kiosk(folder, mode="walk-up").start()
            stop = threading.Event()
            def garbage():
                while not stop.is_set():
                    try:
                        raw_call(kiosk.socket, os.urandom(512) + b"\0", read=False)
                    except OSError:
                        pass
            unread_dropped = []
            def unread():
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                    s.connect(kiosk.socket)
                    s.settimeout(1)
                    try:
                        for _ in range(20000):
                            s.sendall(json.dumps({"method": "org.signpad.Kiosk.GetStatus"}).encode() + b"\0")
                        unread_dropped.append("all 20000 calls taken")
                    except socket.timeout:
                        # Its replies fill its socket, and signpad takes no more of its calls.
                        pass
                    except OSError as error:
                        unread_dropped.append(f"sending: {error!r}")
                    # Reading now would let its replies go: it waits, reading nothing, until they
                    # have waited 10 s.
                    time.sleep(15)
                    stop.wait()
                    # Dropped: what was sent before comes, then the end of the stream.
                    s.settimeout(5)
                    try:
                        while s.recv(1 << 20):
                            pass
                        unread_dropped.append(True)
                    except OSError as error:
                        unread_dropped.append(f"reading: {error!r}")
            held, threads = [], []
            if flood:
                # First the client that never reads, then the connections that take the other places.
                threads = [threading.Thread(target=unread)]
                threads[0].start()
                time.sleep(0.5)
                for _ in range(300):
                    try:
                        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                        c.connect(kiosk.socket)
                        c.sendall(b'{"method": "org.signpad.Kiosk.GetSt')
                        held.append(c)
                    except OSError:
                        pass
                threads += [threading.Thread(target=garbage) for _ in range(4)]
                for t in threads[1:]:
                    t.start()
            deadline = time.time() + 60
            while not (os.path.isdir(kiosk.exports) and any(n.endswith(".meta.json") for n in os.listdir(kiosk.exports))):
                self.assertLess(time.time(), deadline, "the walk-up signature was not saved")
                time.sleep(0.2)
            # The client that never reads is dropped after 10 s.
            if flood:
                time.sleep(11)
            stop.set()
            for t in threads:
                t.join(40)
            for c in held:
                c.close()
            kiosk.stop()
            inkml = next(n for n in os.listdir(kiosk.exports) if n.endswith(".inkml"))
            with open(os.path.join(kiosk.exports, inkml), encoding="utf-8") as f:
                traces = [l.split(">", 1)[1].split("<", 1)[0] for l in f if "<trace " in l]
            # T counted from the first sample: the timestamp is the start's whole millisecond,
            # which differs from run to run, and T carries the fraction after it.
            points = [[p.split() for p in t.split(",")] for t in traces]
            first = float(points[0][0][2])
            traces = [[[p[0], p[1], f"{float(p[2]) - first:.3f}"] + p[3:] for p in t] for t in points]
            latency = next((l for l in kiosk.journal().splitlines() if "latency event" in l), "")
            return traces, latency, kiosk.journal(), unread_dropped

        quiet, quiet_latency, _, _ = signed(False)
        flooded, flooded_latency, journal, unread_dropped = signed(True)
        print(f"\n  quiet:   {quiet_latency.split('signpad: ')[-1]}\n  flooded: {flooded_latency.split('signpad: ')[-1]}")
        self.assertEqual(flooded, quiet, "the same signature")
        self.assertIn("too many connections", journal)
        self.assertEqual(unread_dropped, [True], "the client that never read its replies was dropped")
        # Thousands of bad connections, a few dozen journal lines.
        self.assertLess(journal.count("control client"), 30, "the journal is not flooded in turn")
        p99 = int(flooded_latency.split("p99_us=")[1].split(" ")[0])
        self.assertLess(p99, 250_000, "no ink event waited on a client: " + flooded_latency)

    def test_a_request_under_way_when_signpad_stops_is_answered_failed(self):
        kiosk = self.kiosk(confirm=False)
        answers = []
        def waiting():
            with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
                answers.append(pad.RequestSignature(reference="S1"))
        thread = threading.Thread(target=waiting)
        thread.start()
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            deadline = time.time() + 10
            while "request" not in pad.GetStatus():
                self.assertLess(time.time(), deadline)
                time.sleep(0.05)
        kiosk.stop()
        thread.join(10)
        self.assertEqual((answers[0]["status"], answers[0]["reason"]), ("failed", "signpad stopped during the request"))

    def test_a_request_under_way_when_signpad_is_killed_answers_failed_after_the_restart(self):
        kiosk = self.kiosk(confirm=False)
        with kiosk.client() as client:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(kiosk.socket)
            s.sendall(json.dumps({"method": "org.signpad.Kiosk.RequestSignature", "parameters": {"reference": "K1"}, "more": True}).encode() + b"\0")
            first = json.loads(s.recv(65536).split(b"\0")[0])
            self.assertEqual(first["parameters"]["progress"], "shown")
            kiosk.stop(signal.SIGKILL)
            s.close()
        os.unlink(kiosk.socket)
        again = self.kiosk(confirm=False)
        with again.client() as client, client.open("org.signpad.Kiosk") as pad:
            result = get_result_once_settled(self, pad, first["parameters"]["id"])
        self.assertEqual((result["status"], result["reference"]), ("failed", "K1"))
        self.assertIn("signpad stopped", result["reason"])

    def test_a_signature_on_disk_is_never_answered_failed_after_a_kill(self):
        """Issue 54, defect 4: killed while its signature was being exported, a request read as
        failed after the restart although the signature was on disk. Killed the moment its
        files appear, each round, it is answered signed: kept while in the spool, saved once written."""
        for round in range(3):
            kiosk = self.kiosk()
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(kiosk.socket)
            s.sendall(json.dumps({"method": "org.signpad.Kiosk.RequestSignature", "parameters": {"reference": f"KILL-{round}"}, "more": True}).encode() + b"\0")
            request_id = json.loads(s.recv(65536).split(b"\0")[0])["parameters"]["id"]
            spooled = os.path.join(self.folder, "spool", request_id + ".spool.json")
            written = os.path.join(kiosk.exports, request_id + ".meta.json")
            deadline = time.time() + 60
            while not (os.path.exists(spooled) or os.path.exists(written)):
                self.assertLess(time.time(), deadline, "the signature was never kept")
                time.sleep(0.001)
            kiosk.stop(signal.SIGKILL)
            s.close()
            self.kiosks.remove(kiosk)
            os.unlink(kiosk.socket)
            again = self.kiosk(recording=self.quiet_recording())
            with again.client() as client, client.open("org.signpad.Kiosk") as pad:
                result = get_result_once_settled(self, pad, request_id)
            self.assertEqual(result["status"], "signed", result)
            self.assertIn(result.get("stored"), ("saved", "kept"), result)
            again.stop()
            self.kiosks.remove(again)

    def test_a_flood_of_valid_calls_is_not_a_flood_of_the_journal(self):
        """Issue 54, defect 10: every valid call wrote an info line, 17,000 in 5 s, enough for
        journald to drop the lines that matter. They are budgeted as bad clients' lines are."""
        kiosk = self.kiosk(recording=self.quiet_recording())
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            for _ in range(1500):
                pad.GetStatus()
        kiosk.stop()
        self.kiosks.remove(kiosk)
        journal = kiosk.journal()
        self.assertLess(journal.count("control call"), 40, "the journal is not flooded")
        self.assertIn("control calls held back", journal)

    def test_refused_calls_and_clients_are_budgeted_and_what_was_held_back_is_said(self):
        """A flood of calls refused, or of connections past a uid's share, is budgeted as answered
        calls are; how many lines were held back is said at the latest when signpad stops, even
        if nothing came after the flood."""
        kiosk = self.kiosk(recording=self.quiet_recording())
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            for _ in range(300):
                with self.assertRaises(varlink.VarlinkError):
                    pad.GetResult("no-such-request")
        held, _ = hold_connections(kiosk.socket, 45)
        kiosk.stop()
        self.kiosks.remove(kiosk)
        for s in held:
            s.close()
        journal = kiosk.journal()
        self.assertLess(journal.count("control call refused"), 40, "refused calls do not flood the journal")
        self.assertTrue("control calls refused held back" in journal, journal[-2000:])
        self.assertLessEqual(journal.count("control client refused"), 20, journal[-2000:])
        self.assertTrue("more lines about dropped or refused clients held back" in journal, journal[-2000:])

    def quiet_recording(self):
        """The demo panel with no touch at all: a kiosk that only answers."""
        path = os.path.join(self.folder, "quiet.evemu")
        with open(RECORDING) as demo, open(path, "w") as out:
            out.writelines(l for l in demo if not l.startswith("E:"))
        return path
    def shared_kiosk(self, **kwargs):
        """A kiosk whose socket the group nogroup may use, so that root and nobody are two members."""
        if os.geteuid() != 0:
            self.skipTest("two uids need root (CI runs the suite as root)")
        os.chmod(self.folder, 0o711)
        return self.kiosk(extra=["--set", 'control.group="nogroup"'] + list(kwargs.pop("extra", [])), **kwargs)

    def test_pipelined_calls_are_all_answered_in_order(self):
        kiosk = self.kiosk()
        count = 3000
        calls = []
        for i in range(count):
            if i % 3 == 0:
                calls.append({"method": "org.varlink.service.GetInfo"})
            else:
                calls.append({"method": "org.signpad.Kiosk.GetResult", "parameters": {"id": f"p{i}"}})
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(kiosk.socket)
            sender = threading.Thread(target=s.sendall, args=(b"".join(json.dumps(c).encode() + b"\0" for c in calls),))
            sender.start()
            replies = read_replies(s, count, timeout=120)
            sender.join(10)
        self.assertEqual(len(replies), count)
        for i, reply in enumerate(replies):
            if i % 3 == 0:
                self.assertEqual(reply["parameters"].get("product"), "signpad kiosk signature pad", (i, reply))
            else:
                self.assertEqual((reply.get("error"), reply["parameters"]), ("org.signpad.Kiosk.NoSuchRequest", {"id": f"p{i}"}), i)

    def test_a_oneway_call_gets_no_reply(self):
        kiosk = self.kiosk(confirm=False)
        oneway = [{"method": "org.varlink.service.GetInfo"},
                  {"method": "org.varlink.service.GetInterfaceDescription", "parameters": {"interface": "no.such"}},
                  {"method": "org.signpad.Kiosk.GetStatus"},
                  {"method": "org.signpad.Kiosk.GetResult", "parameters": {"id": "none"}},
                  {"method": "org.signpad.Kiosk.CancelRequest", "parameters": {"id": "none"}},
                  {"method": "org.signpad.Kiosk.RequestSignature", "parameters": {"reference": ""}},
                  {"method": "org.signpad.Kiosk.Nope"}]
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(kiosk.socket)
            s.sendall(b"".join(json.dumps(dict(c, oneway=True)).encode() + b"\0" for c in oneway)
                      + json.dumps({"method": "org.signpad.Kiosk.GetStatus"}).encode() + b"\0")
            replies = read_replies(s, 1)
        self.assertEqual(len(replies), 1, replies)
        self.assertIn("signingKey", replies[0]["parameters"], "the reply is the last call's, GetStatus")
        self.assertNotIn("request", replies[0]["parameters"])

    def test_a_parameter_nested_too_deep_is_an_invalid_parameter(self):
        kiosk = self.kiosk()
        def deep(depth):
            return "[" * depth + '"x"' + "]" * depth
        # The message is depth 1 and its parameters 2: 63 arrays make 65.
        for method in ["org.varlink.service.GetInfo", "org.signpad.Kiosk.GetStatus"]:
            refused = raw_call(kiosk.socket, ('{"method": "%s", "parameters": {"x": %s}}' % (method, deep(63))).encode() + b"\0")
            self.assertEqual((refused.get("error"), refused["parameters"]), ("org.varlink.service.InvalidParameter", {"parameter": "x"}))
        message = '{"method": "org.signpad.Kiosk.RequestSignature", "parameters": {"reference": "D", "lines": %s}}' % deep(63)
        refused = raw_call(kiosk.socket, message.encode() + b"\0")
        self.assertEqual((refused["error"], refused["parameters"]), ("org.varlink.service.InvalidParameter", {"parameter": "lines"}))
        self.assertIsNone(raw_call(kiosk.socket, b"[" * 30000 + b"]" * 30000 + b"\0"), "no call at all: hung up")
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            self.assertNotIn("request", pad.GetStatus())
        self.assertIn("nested deeper than 64", kiosk.journal())

    def test_one_uid_cannot_hold_every_connection(self):
        kiosk = self.shared_kiosk()
        held, closed = hold_connections(kiosk.socket, 40)
        self.assertEqual(closed, 40 - 16, "root keeps half the connections")
        client = kiosk.client()
        def get_info():
            with client.open("org.varlink.service") as service:
                return service.GetInfo()["product"]
        self.assertEqual(as_nobody(get_info), "signpad kiosk signature pad", "another member still gets in")
        for s in held:
            s.close()

    def test_a_burst_of_clients_while_the_loop_is_busy_is_not_refused(self):
        """A Unix socket refuses a connection outright once its listen backlog is full. With the
        daemon stopped (as a busy loop is, for a moment) 40 clients connect at once: each gets
        in, and once it runs again each is answered or closed by the connection policy."""
        kiosk = self.kiosk()
        kiosk.process.send_signal(signal.SIGSTOP)
        held = []
        try:
            for _ in range(40):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(2)
                s.connect(kiosk.socket)
                held.append(s)
        finally:
            kiosk.process.send_signal(signal.SIGCONT)
        for s in held:
            s.close()
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            self.assertIn("mode", pad.GetStatus())

    def test_two_uids_holding_every_connection_cannot_lock_out_a_third(self):
        """Two members fill the kiosk's 32 connections between them, 16 each; a third member still
        gets in: the biggest holder's quietest connection is closed for it."""
        kiosk = self.shared_kiosk()
        def connect_as(uid, count):
            # SO_PEERCRED takes the effective ids at connect().
            os.setegid(NOBODY)
            os.seteuid(uid)
            try:
                return hold_connections(kiosk.socket, count)
            finally:
                os.seteuid(0)
                os.setegid(0)
        held_root, closed_root = hold_connections(kiosk.socket, 16)
        held_nobody, closed_nobody = connect_as(NOBODY, 16)
        self.assertEqual((closed_root, closed_nobody), (0, 0), "16 each fill the kiosk")
        third, closed_third = connect_as(NOBODY - 1, 1)
        self.assertEqual(closed_third, 0, "a third member is let in")
        third[0].settimeout(10)
        third[0].sendall(b'{"method": "org.varlink.service.GetInfo"}\0')
        self.assertEqual(read_replies(third[0], 1)[0]["parameters"]["product"], "signpad kiosk signature pad")
        evicted = 0
        for s in held_root + held_nobody:
            s.settimeout(0.2)
            try:
                evicted += s.recv(1) == b""
            except socket.timeout:
                pass
        self.assertEqual(evicted, 1, "one quiet connection made room")
        for s in held_root + held_nobody + third:
            s.close()
        self.assertIn("made room", kiosk.journal())

    def test_a_request_belongs_to_the_uid_that_asked(self):
        kiosk = self.shared_kiosk(confirm=False)
        answers = []
        def waiting():
            with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
                answers.append(pad.RequestSignature(reference="MINE-1", title="Sign, please"))
        thread = threading.Thread(target=waiting)
        thread.start()
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            deadline = time.time() + 10
            while "request" not in (status := pad.GetStatus()):
                self.assertLess(time.time(), deadline)
                time.sleep(0.05)
            request = status["request"]["id"]
            def other_member():
                with client.open("org.signpad.Kiosk") as pad:
                    return {"status": pad.GetStatus().get("request"),
                            "cancel": varlink_error(lambda: pad.CancelRequest(request)),
                            "result": varlink_error(lambda: pad.GetResult(request)),
                            "busy": varlink_error(lambda: pad.RequestSignature(reference="THEIRS"))}
            seen = as_nobody(other_member)
            self.assertEqual(set(seen["status"]), {"since"}, "busy, without whose request: " + json.dumps(seen["status"]))
            self.assertEqual(seen["cancel"], ["org.signpad.Kiosk.NoSuchRequest", {"id": request}])
            self.assertEqual(seen["result"], ["org.signpad.Kiosk.NoSuchRequest", {"id": request}])
            self.assertEqual(seen["busy"], ["org.signpad.Kiosk.Busy", {}])
            self.assertEqual(pad.GetStatus()["request"]["id"], request, "still under way")
            pad.CancelRequest(request)
            thread.join(10)
            self.assertEqual(answers[0]["status"], "cancelled")
            self.assertEqual(pad.GetResult(request)["status"], "cancelled")
            def result_of_another():
                with client.open("org.signpad.Kiosk") as pad:
                    return varlink_error(lambda: pad.GetResult(request))
            after = as_nobody(result_of_another)
            self.assertEqual(after, ["org.signpad.Kiosk.NoSuchRequest", {"id": request}], "nor its result once ended")
            # nobody's own request is nobody's to cancel and read; root sees it too.
            def own_request():
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s, client.open("org.signpad.Kiosk") as pad:
                    s.connect(kiosk.socket)
                    s.sendall(json.dumps({"method": "org.signpad.Kiosk.RequestSignature", "parameters": {"reference": "THEIRS-2"},
                                          "more": True}).encode() + b"\0")
                    shown = read_replies(s, 1, timeout=10)[0]["parameters"]
                    pad.CancelRequest(shown["id"])
                    return shown["id"], read_replies(s, 1, timeout=10)[0]["parameters"]["status"], pad.GetResult(shown["id"])["status"]
            theirs, answered, result = as_nobody(own_request)
            self.assertEqual((answered, result), ("cancelled", "cancelled"))
            self.assertEqual(pad.GetResult(theirs)["status"], "cancelled", "root reads any result")
        # The book keeps whose each result is across a restart.
        kiosk.stop()
        again = self.shared_kiosk(confirm=False)
        client = again.client()
        def results_after_restart():
            with client.open("org.signpad.Kiosk") as pad:
                return varlink_error(lambda: pad.GetResult(request))[0], pad.GetResult(theirs)["status"]
        self.assertEqual(as_nobody(results_after_restart), ["org.signpad.Kiosk.NoSuchRequest", "cancelled"])


class RequestCommandTest(unittest.TestCase):
    """`signpad request`, the command-line client, against the same offscreen daemon."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="signpad-request-")
        self.kiosk = None

    def tearDown(self):
        if self.kiosk:
            self.kiosk.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def request(self, *args):
        return subprocess.run([SIGNPAD, "request", "--socket", self.kiosk.socket] + list(args),
                              capture_output=True, text=True, timeout=120)

    def test_signed_prints_progress_and_files_and_exits_0(self):
        self.kiosk = Kiosk(self.folder).start()
        image = os.path.join(self.folder, "signature.png")
        done = self.request("--reference", "SALE-9", "--title", "Total 9.90 EUR", "--line", "Card ****1234", "--image", image)
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertTrue(lines[0].startswith("shown: SALE-9_"), done.stdout)
        self.assertTrue(any(l.startswith("signed: SALE-9_") and "(saved)" in l for l in lines), done.stdout)
        self.assertTrue(any(l.strip().startswith("SALE-9_") and ".png" in l and "sha256" in l for l in lines), done.stdout)
        with open(image, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_json_lines_and_the_exit_status_of_each_ending(self):
        self.kiosk = Kiosk(self.folder, confirm=False).start()
        timed = self.request("--reference", "T", "--timeout", "5", "--json")
        self.assertEqual(timed.returncode, 1, timed.stderr)
        replies = [json.loads(l) for l in timed.stdout.splitlines()]
        self.assertEqual([r.get("progress") or r.get("status") for r in replies][-1], "timedOut")
        self.assertEqual(replies[0]["progress"], "shown")
        refused = self.request("--reference", "x" * 65)
        self.assertEqual(refused.returncode, 2)
        self.assertIn("org.signpad.Kiosk.InvalidParameter", refused.stderr)
        self.assertIn("parameter=reference", refused.stderr)
        unreachable = subprocess.run([SIGNPAD, "request", "--socket", os.path.join(self.folder, "none.sock"), "--reference", "R"],
                                     capture_output=True, text=True, timeout=30)
        self.assertEqual(unreachable.returncode, 2)
        self.assertIn("none.sock: cannot connect", unreachable.stderr)

    def test_status_cancel_and_result_from_the_shell(self):
        self.kiosk = Kiosk(self.folder, confirm=False).start()
        waiting = subprocess.Popen([SIGNPAD, "request", "--socket", self.kiosk.socket, "--reference", "C1", "--json"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        shown = json.loads(waiting.stdout.readline())
        status = self.request("--status")
        self.assertEqual(status.returncode, 0, status.stderr)
        self.assertIn(f'request: {{"id":"{shown["id"]}"', status.stdout)
        cancelled = self.request("--cancel", shown["id"])
        self.assertEqual(cancelled.returncode, 0, cancelled.stderr)
        self.assertEqual(waiting.wait(30), 1)
        self.assertEqual(json.loads(waiting.stdout.read().splitlines()[-1])["status"], "cancelled")
        result = self.request("--result", shown["id"], "--json")
        self.assertEqual((result.returncode, json.loads(result.stdout)["status"]), (1, "cancelled"))
        unknown = self.request("--result", "nope")
        self.assertEqual(unknown.returncode, 2)
        self.assertIn("org.signpad.Kiosk.NoSuchRequest: id=nope", unknown.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
