# The kiosk's key in the TPM (QEMU's tpm-tis, swtpm on the host), as the README sets it up: made
# there by key create --tpm, opened to the unit by the drop-in, and signing the next signature.
export TPM2OPENSSL_TCTI=device:/dev/tpmrm0
signpad key create --tpm --handle 0x81000100 > /run/tpm.pem 2> /run/tpm-create.out
create_exit=$?
mkdir -p /etc/systemd/system/signpad.service.d
cat > /etc/systemd/system/signpad.service.d/tpm.conf <<'UNIT'
[Unit]
Wants=dev-tpmrm0.device
After=dev-tpmrm0.device
[Service]
DeviceAllow=/dev/tpmrm0 rw
SupplementaryGroups=tss
Environment=TPM2OPENSSL_TCTI=device:/dev/tpmrm0
UNIT
cp /etc/signpad/signpad.toml /run/signpad.toml.before-tpm
sed -i 's|^signing_key = .*|signing_key = "tpm2:handle:0x81000100"|' /etc/signpad/signpad.toml
systemctl daemon-reload
systemctl restart signpad
wait_for 60 running
before=$(exported_records)
play /usr/share/signpad-vm/signature.evemu
play /usr/share/signpad-vm/tap-done.evemu
wait_for 10 above "$before" exported_records
sleep 0.5
latest=$(ls -t "$exports"/*.meta.json | head -1)
openssl dgst -sha256 -verify /run/tpm.pem -signature "$latest.sig" "$latest" > /run/tpm-dgst.out 2>&1
dgst_exit=$?
signpad verify --key /run/tpm.pem "$latest" > /run/tpm-verify.out 2>&1
verify_exit=$?
say "CHECK tpmkey $(state) create $create_exit device $(stat -c %G /dev/tpmrm0 2>/dev/null || echo none) dgst $dgst_exit verify $verify_exit ecdsa $(grep -c '"algorithm" : "ECDSA-P256-SHA256"' "$latest") keyline $(logged 'path=tpm2:handle:0x81000100') manifests_before $before manifests $(exported_records)"
say "FILE tpm-create.out"
base64 /run/tpm-create.out
say "END"
# The TPM's key stays for document_signed, which goes back to the key file after it.
