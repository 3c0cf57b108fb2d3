# Issue 57 under the shipped unit: the TPM's key (left by tpm_key) certified by key certificate,
# a point of sale's user in signpad-pos leaving a PDF in the documents folder and asking for it
# to be signed, the customer signing on the panel through uinput; the signed PDF goes to the host.
export TPM2OPENSSL_TCTI=device:/dev/tpmrm0
sock=/run/signpad/control.sock
docs=/var/lib/signpad/documents
signpad key certificate > /etc/signpad/kiosk.crt 2> /run/doc-cert.out
cert_exit=$?
chmod 0644 /etc/signpad/kiosk.crt
sed -i 's|^document_certificate = .*|document_certificate = "/etc/signpad/kiosk.crt"|' /etc/signpad/signpad.toml
systemctl restart signpad
wait_for 60 running
wait_for 10 test -d "$docs"
useradd --system --no-create-home --groups signpad-pos pos
evemu-device /usr/share/signpad-vm/signature.evemu > /run/evemu-doc.out 2>&1 &
doc_pid=$!
wait_for 5 grep -q '/dev/input/event' /run/evemu-doc.out
doc_node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /run/evemu-doc.out)
status_has 10 'signpad demo touchscreen'
as_pos() { setpriv --reuid=pos --regid=pos --init-groups "$@"; }
as_pos cp /usr/share/signpad-vm/contract.pdf "$docs/INV-VM.pdf"
copied=$?
as_pos signpad request --socket "$sock" --reference INV-VM --signer "Dana Example" --reason "I agree" \
    --document "$docs/INV-VM.pdf" --json > /run/doc.json 2>&1 &
doc_req=$!
wait_for 20 grep -q '"progress":"shown"' /run/doc.json
# The customer reads the page to its foot, the field outlined there, and only then may sign.
wait_for 60 sh -c "journalctl -u signpad -o cat --no-pager | grep -q \"a document's page is shown\""
ask "screendump sd-document-top"
evemu-play "$doc_node" < /usr/share/signpad-vm/read-document.evemu
sleep 1
ask "screendump sd-document-foot"
evemu-play "$doc_node" < /usr/share/signpad-vm/tap-sign.evemu
sleep 1
ask "screendump sd-document-signing"
evemu-play "$doc_node" < /usr/share/signpad-vm/signature.evemu
evemu-play "$doc_node" < /usr/share/signpad-vm/tap-done.evemu
wait "$doc_req"; doc_exit=$?
last=$(tail -1 /run/doc.json)
signed=$(echo "$last" | grep -o '"document":{"path":"[^"]*"' | cut -d'"' -f6)
prefix=no
[ -f "$signed" ] && cmp -s -n "$(stat -c %s "$docs/INV-VM.pdf")" "$docs/INV-VM.pdf" "$signed" && prefix=yes
say "CHECK documentsigned $(state) cert $cert_exit folder $(stat -c '%a:%G' "$docs") copied $copied exit $doc_exit status $(echo "$last" | grep -o '"status":"[^"]*"' | cut -d'"' -f4) prefix $prefix sha $( [ -f "$signed" ] && sha256sum "$signed" | cut -c1-64 || echo none) told $(echo "$last" | grep -o '"document":{"path":"[^"]*","sha256":"[0-9a-f]*"' | cut -d'"' -f10)"
say "FILE signed.pdf"
base64 "$signed" 2>/dev/null
say "END"
say "FILE kiosk.crt"
base64 /etc/signpad/kiosk.crt
say "END"
kill "$doc_pid"; wait "$doc_pid" 2>/dev/null
# Back to the key file, for the scenarios after this one.
systemctl stop signpad
cp /run/signpad.toml.before-tpm /etc/signpad/signpad.toml
rm -r /etc/systemd/system/signpad.service.d
systemctl daemon-reload
