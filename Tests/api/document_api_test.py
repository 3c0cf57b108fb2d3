#!/usr/bin/env python3
"""A point of sale's PDF signed through the API (RequestSignature's document), driven by PyPI's
varlink client against the offscreen daemon, the signed PDF checked by poppler's pdfsig, qpdf
and pyHanko (Tests/pdf/validate_pdf.py). Run by `swift test` (ControlAPITests); on its own:

    SIGNPAD=.build/debug/signpad python3 Tests/api/document_api_test.py
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import varlink

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from control_api_test import Kiosk, RECORDING, ROOT, SIGNPAD  # noqa: E402

VALIDATE = os.path.join(ROOT, "Tests/pdf/validate_pdf.py")
CONTRACT_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="595pt" height="842pt" viewBox="0 0 595 842">
<rect width="595" height="842" fill="white"/>
<text x="72" y="100" font-family="sans-serif" font-size="24">Contract INV-9</text>
<rect x="72" y="700" width="220" height="60" fill="none" stroke="black"/>
</svg>
"""


def twenty_pages(path):
    """Twenty pages from cairo's PDF surface (rsvg-convert, one SVG a page), each numbered."""
    pages = []
    for number in range(1, 21):
        svg = f"{path}.{number}.svg"
        with open(svg, "w") as f:
            f.write(CONTRACT_SVG.replace("Contract INV-9", f"Page {number} of 20"))
        pages.append(svg)
    subprocess.run(["rsvg-convert", "-f", "pdf", "-o", path] + pages, check=True)
    for svg in pages:
        os.unlink(svg)
    return path


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def hand_pdf(objects):
    """A small PDF with a classic cross-reference table, object by object."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    size = max(objects) + 1
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f\r\n" % size
    for number in range(1, size):
        out += (b"%010d 00000 n\r\n" % offsets[number]) if number in offsets else b"0000000000 00000 f\r\n"
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    return bytes(out)


def review_layout(decline=True):
    """The review screen's rectangles on the test kiosk's 800x480 screen, with its Decline button."""
    shown = subprocess.run([SIGNPAD, "layout", "--review", "--json", "--screen", "800x480"] + (["--set", 'kiosk.decline_label="Decline"'] if decline else []),
                           check=True, capture_output=True, text=True)
    return json.loads(shown.stdout)


def centre(rect):
    return (rect[0] + rect[2]) // 2, (rect[1] + rect[3]) // 2


def reading_recording(path, pages=1, drags_per_page=4, then_sign=True, start=1.5, decline=True):
    """A customer on the demo panel who reads `pages` pages (each dragged up `drags_per_page`
    times, then Next), taps Sign, and signs as the demo does; the signature's events follow.
    `decline`: the kiosk offers Decline, which narrows the buttons."""
    layout = review_layout(decline)
    page = layout["page"]
    # A recording plays from its first event: this empty frame at 0 makes `start` a pause.
    events, t, contact = ["E: 0.000000 0000 0000 0\n"], start, 100

    def frame(when, body):
        for typ, code, value in body + [(0, 0, 0)]:
            events.append(f"E: {when:.6f} {typ:04x} {code:04x} {value}\n")

    def units(x, y):
        return x * 4096 // 800, y * 4096 // 480

    def touch(points):
        nonlocal t, contact
        contact += 1
        x, y = units(*points[0])
        frame(t, [(3, 0x2f, 0), (3, 0x39, contact), (3, 0x35, x), (3, 0x36, y), (1, 0x14a, 1), (3, 0, x), (3, 1, y)])
        for point in points[1:]:
            t += 0.016
            x, y = units(*point)
            frame(t, [(3, 0x35, x), (3, 0x36, y), (3, 0, x), (3, 1, y)])
        t += 0.05
        frame(t, [(3, 0x39, -1), (1, 0x14a, 0)])
        t += 0.25

    x = (page[0] + page[2]) // 2
    for number in range(pages):
        for _ in range(drags_per_page):
            bottom, top = page[3] - 10, page[1] + 10
            touch([(x, bottom - (bottom - top) * step // 16) for step in range(17)])
        if number < pages - 1:
            touch([centre(layout["next"])])
            t += 0.5
    if then_sign:
        touch([centre(layout["sign"])])
    t += 0.5
    with open(RECORDING) as demo:
        lines = demo.readlines()
    head = [line for line in lines if not line.startswith("E:")]
    signature = []
    for line in lines:
        if line.startswith("E:"):
            _, when, rest = line.split(" ", 2)
            signature.append(f"E: {float(when) + t:.6f} {rest}")
    with open(path, "w") as out:
        out.writelines(head + events + signature)
    return path


class DocumentKiosk(Kiosk):
    """A kiosk that signs documents: a P-256 key, its self-signed certificate, a documents folder."""

    def __init__(self, folder, certificate=True, **kwargs):
        self.documents = os.path.join(folder, "documents")
        key = os.path.join(folder, "signing.key")
        subprocess.run([SIGNPAD, "key", "create", "--algorithm", "p256", "--set", f'export.signing_key="{key}"'],
                       check=True, capture_output=True)
        self.certificate = os.path.join(folder, "kiosk.crt")
        with open(self.certificate, "wb") as out:
            subprocess.run([SIGNPAD, "key", "certificate", "--set", f'export.signing_key="{key}"', "--set", 'export.kiosk_name="Till 9"'],
                           check=True, stdout=out)
        extra = ["--set", f'documents.directory="{self.documents}"'] + list(kwargs.pop("extra", []))
        if certificate:
            extra += ["--set", f'export.document_certificate="{self.certificate}"']
        kwargs.setdefault("recording", reading_recording(os.path.join(folder, "reads-and-signs.evemu")))
        super().__init__(folder, extra=extra, **kwargs)

    def document(self, name="contract.pdf", field=None):
        """A one-page PDF from cairo's PDF surface (rsvg-convert), in the documents folder; with
        `field`, an empty signature field added by pyHanko."""
        svg = os.path.join(self.folder, "contract.svg")
        with open(svg, "w") as f:
            f.write(CONTRACT_SVG)
        path = os.path.join(self.documents, name)
        plain = path if field is None else path + ".plain.pdf"
        subprocess.run(["rsvg-convert", "-f", "pdf", "-o", plain, svg], check=True)
        if field is not None:
            subprocess.run(["pyhanko", "sign", "addfields", "--field", f"1/72,82,292,142/{field}", plain, path], check=True, capture_output=True)
        return path


class DocumentAPITest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="signpad-documents-")
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)

    def kiosk(self, **kwargs):
        kiosk = DocumentKiosk(self.folder, **kwargs).start()
        self.addCleanup(kiosk.stop)
        return kiosk

    def validate(self, signed, certificate):
        pdfsig = subprocess.run(["pdfsig", signed], capture_output=True, text=True)
        self.assertIn("Signature is Valid", pdfsig.stdout, pdfsig.stdout + pdfsig.stderr)
        self.assertIn("Total document signed", pdfsig.stdout)
        qpdf = subprocess.run(["qpdf", "--check", signed], capture_output=True, text=True)
        self.assertEqual(qpdf.returncode, 0, qpdf.stdout + qpdf.stderr)
        hanko = subprocess.run([sys.executable, VALIDATE, signed, "--trust", certificate], capture_output=True, text=True)
        self.assertEqual(hanko.returncode, 0, hanko.stdout + hanko.stderr)
        found = json.loads(hanko.stdout.splitlines()[0])
        self.assertEqual(found["padesLevel"], "B-B", found)
        return found

    def test_a_document_is_signed_in_its_field_and_returned_with_its_hash(self):
        kiosk = self.kiosk()
        original = kiosk.document(field="Customer")
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            replies = list(pad.RequestSignature(reference="INV-9", signer="Dana Example", reason="I agree",
                                                document={"path": original, "sha256": sha256(original)}, _more=True))
        final = replies[-1]
        self.assertEqual(final["status"], "signed", final)
        self.assertEqual([r.get("progress") for r in replies[:-1]], ["shown", "reviewed", "ink"])
        signed = final["document"]["path"]
        self.assertEqual(signed, os.path.join(kiosk.exports, final["id"] + ".pdf"))
        self.assertEqual(sha256(signed), final["document"]["sha256"])
        self.assertIn(final["id"] + ".pdf", [f["name"] for f in final["files"]])
        with open(original, "rb") as a, open(signed, "rb") as b:
            before, after = a.read(), b.read()
        self.assertTrue(after.startswith(before), "the original bytes are a prefix of the signed PDF")
        self.assertEqual(self.validate(signed, kiosk.certificate)["field"], "Customer")
        with open(os.path.join(kiosk.exports, final["id"] + ".meta.json")) as f:
            manifest = json.load(f)
        self.assertEqual(manifest["request"]["documentSha256"], hashlib.sha256(before).hexdigest())
        self.assertEqual(manifest["files"][final["id"] + ".pdf"]["sha256"], final["document"]["sha256"])
        # What the customer was shown: the page drawn 760 px wide (the page's room on an 800x480
        # screen), by the poppler installed, as pdftoppm names it.
        shown = manifest["documentShown"]
        poppler = subprocess.run(["pdftoppm", "-v"], capture_output=True, text=True).stderr.split()[2]
        self.assertEqual(shown["renderer"], "poppler " + poppler)
        page = review_layout()["page"]
        width = page[2] - page[0]
        self.assertEqual([(p["page"], p["width"], p["height"]) for p in shown["pages"]], [(1, width, round(842 * width / 595))])
        self.assertAlmostEqual(shown["pages"][0]["scale"], width / 595, places=9)
        self.assertRegex(shown["pages"][0]["sha256"], "^[0-9a-f]{64}$")
        # The manifest is signed with the same P-256 key, as OpenSSL verifies it.
        public = os.path.join(self.folder, "kiosk.pub")
        with open(public, "wb") as out:
            subprocess.run([SIGNPAD, "key", "show", "--set", f'export.signing_key="{self.folder}/signing.key"'], check=True, stdout=out,
                           stderr=subprocess.DEVNULL)
        manifest_path = os.path.join(kiosk.exports, final["id"] + ".meta.json")
        dgst = subprocess.run(["openssl", "dgst", "-sha256", "-verify", public, "-signature", manifest_path + ".sig", manifest_path],
                              capture_output=True, text=True)
        self.assertEqual(dgst.stdout.strip(), "Verified OK", dgst.stdout + dgst.stderr)
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            again = pad.GetResult(final["id"])
        self.assertEqual(again["document"], final["document"])

    def test_a_rectangle_makes_a_new_field_where_the_document_has_none(self):
        kiosk = self.kiosk()
        original = kiosk.document()
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            final = list(pad.RequestSignature(reference="INV-10", document={"path": original, "sha256": sha256(original), "page": 1,
                                                                  "rect": [72, 82, 292, 142]}, _more=True))[-1]
        self.assertEqual(final["status"], "signed", final)
        self.assertEqual(self.validate(final["document"]["path"], kiosk.certificate)["field"], "Signature1")

    def test_sign_is_not_offered_before_every_page_was_shown(self):
        """Twenty pages, the first alone read: Sign is not there to tap, the signature's strokes
        only drag the page, and the request times out unsigned."""
        recording = reading_recording(os.path.join(self.folder, "reads-one-page.evemu"), pages=1)
        kiosk = self.kiosk(recording=recording)
        original = os.path.join(kiosk.documents, "twenty.pdf")
        os.makedirs(kiosk.documents, exist_ok=True)
        twenty_pages(original)
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            final = list(pad.RequestSignature(reference="INV-20", timeoutSeconds=8, _more=True,
                                              document={"path": original, "sha256": sha256(original), "page": 20, "rect": [72, 82, 292, 142]}))[-1]
        self.assertEqual(final["status"], "timedOut", final)
        self.assertEqual(os.listdir(kiosk.exports) if os.path.isdir(kiosk.exports) else [], [], "nothing was signed")

    def test_without_require_review_sign_is_offered_at_once(self):
        # Sign tapped three seconds in, once the page is there, without a drag.
        recording = reading_recording(os.path.join(self.folder, "signs-at-once.evemu"), pages=0, start=3)
        kiosk = self.kiosk(recording=recording, extra=["--set", "documents.require_review=false"])
        original = os.path.join(kiosk.documents, "twenty.pdf")
        os.makedirs(kiosk.documents, exist_ok=True)
        twenty_pages(original)
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            final = list(pad.RequestSignature(reference="INV-21", _more=True,
                                              document={"path": original, "sha256": sha256(original), "page": 20, "rect": [72, 82, 292, 142]}))[-1]
        self.assertEqual(final["status"], "signed", final)
        with open(os.path.join(kiosk.exports, final["id"] + ".meta.json")) as f:
            shown = json.load(f)["documentShown"]
        self.assertEqual([p["page"] for p in shown["pages"]], [1], "the first page alone was shown")
        self.validate(final["document"]["path"], kiosk.certificate)

    def test_a_field_far_off_a_tiny_page_does_not_end_the_kiosk(self):
        """A page 10^-14 points wide puts its field astronomically far off it, in page widths:
        the review shows the page without an outline, and the kiosk goes on to sign it. A new
        field's rectangle off its page is refused when the document is taken."""
        kiosk = self.kiosk()
        os.makedirs(kiosk.documents, exist_ok=True)
        tiny = os.path.join(kiosk.documents, "tiny.pdf")
        with open(tiny, "wb") as out:
            out.write(hand_pdf({1: b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>", 2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 0.00000000000001 0.00000000000001] /Annots [4 0 R] >>",
                                4: b"<< /FT /Sig /T (Customer) /Type /Annot /Subtype /Widget /Rect [72 82 292 142] /P 3 0 R /F 4 >>"}))
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            final = list(pad.RequestSignature(reference="INV-T", _more=True, document={"path": tiny, "sha256": sha256(tiny)}))[-1]
            self.assertEqual(final["status"], "signed", final)
            self.assertIn("kiosk", pad.GetStatus(), "the kiosk still answers")
        said = self.refused(kiosk, {"path": tiny, "sha256": sha256(tiny), "field": "Other", "page": 1, "rect": [72, 82, 292, 142]},
                            "org.signpad.Kiosk.DocumentRefused")
        self.assertIn("the rectangle is not within page 1", said["reason"])

    def refused(self, kiosk, document, error):
        with kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            with self.assertRaises(varlink.VarlinkError) as caught:
                list(pad.RequestSignature(reference="INV-11", document=document, _more=True))
            self.assertEqual(caught.exception.error(), error, caught.exception.parameters())
            status = pad.GetStatus()
        self.assertNotIn("request", status, "nothing is shown")
        return caught.exception.parameters()

    def test_another_hash_is_refused_and_nothing_is_shown(self):
        kiosk = self.kiosk()
        original = kiosk.document()
        said = self.refused(kiosk, {"path": original, "sha256": "0" * 64, "rect": [72, 82, 292, 142]}, "org.signpad.Kiosk.DocumentRefused")
        self.assertEqual(said["path"], original)
        self.assertIn(sha256(original), said["reason"])

    def test_no_field_and_no_rectangle_is_refused(self):
        kiosk = self.kiosk()
        original = kiosk.document()
        said = self.refused(kiosk, {"path": original, "sha256": sha256(original)}, "org.signpad.Kiosk.DocumentRefused")
        self.assertIn("no unsigned signature field, and no rectangle", said["reason"])
        said = self.refused(kiosk, {"path": original, "sha256": sha256(original), "page": 1}, "org.signpad.Kiosk.InvalidParameter")
        self.assertEqual(said["parameter"], "document.page")

    def test_a_link_a_broken_pdf_and_a_file_outside_the_folder_are_refused(self):
        kiosk = self.kiosk()
        original = kiosk.document()
        link = os.path.join(kiosk.documents, "link.pdf")
        os.symlink(original, link)
        said = self.refused(kiosk, {"path": link, "sha256": sha256(original), "rect": [72, 82, 292, 142]}, "org.signpad.Kiosk.DocumentRefused")
        self.assertIn("symbolic link", said["reason"])
        truncated = os.path.join(kiosk.documents, "truncated.pdf")
        with open(original, "rb") as f, open(truncated, "wb") as out:
            out.write(f.read()[:400])
        said = self.refused(kiosk, {"path": truncated, "sha256": sha256(truncated), "rect": [72, 82, 292, 142]}, "org.signpad.Kiosk.DocumentRefused")
        self.assertIn("startxref", said["reason"])
        # Annotations that only signing reads, broken: refused when taken, not after the customer signs.
        broken_annots = os.path.join(kiosk.documents, "annots.pdf")
        with open(broken_annots, "wb") as out:
            out.write(hand_pdf({1: b"<< /Type /Catalog /Pages 2 0 R >>", 2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Annots 6 0 R >>",
                                6: b"[]"}).replace(b"6 0 obj", b"9 9 xxx"))
        said = self.refused(kiosk, {"path": broken_annots, "sha256": sha256(broken_annots), "rect": [72, 82, 292, 142]}, "org.signpad.Kiosk.DocumentRefused")
        self.assertIn("cannot be signed", said["reason"])
        outside = os.path.join(self.folder, "elsewhere.pdf")
        shutil.copy(original, outside)
        said = self.refused(kiosk, {"path": outside, "sha256": sha256(outside)}, "org.signpad.Kiosk.InvalidParameter")
        self.assertEqual(said["parameter"], "document.path")

    def test_a_kiosk_without_a_document_certificate_takes_no_document(self):
        kiosk = self.kiosk(certificate=False)
        os.makedirs(kiosk.documents, exist_ok=True)
        original = kiosk.document()
        said = self.refused(kiosk, {"path": original, "sha256": sha256(original)}, "org.signpad.Kiosk.InvalidParameter")
        self.assertEqual(said["parameter"], "document")
        self.assertIn("export.document_certificate", said["expected"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
