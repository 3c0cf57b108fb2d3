play /usr/share/signpad-vm/signature.evemu
ask "screendump sd-signed"
# A drop box: the folder is one signpad may write into but not list (root still lists it here).
chmod 0330 "$exports"
play /usr/share/signpad-vm/tap-done.evemu
wait_for 10 sh -c "ls $exports/*.meta.json >/dev/null 2>&1"
sleep 0.5
say "CHECK exportdir mode $(stat -c '%a' "$exports") failed $(logged 'failed, kept and retried')"
say "CHECK kiosk hostname $(hostname)"
chmod 0750 "$exports"
for f in "$exports"/*; do
    [ -f "$f" ] || continue
    say "CHECK exportfile $(stat -c '%U:%G %a' "$f") $(basename "$f")"
    say "FILE $(basename "$f")"
    base64 "$f"
    say "END"
done
# The packaged unit made the kiosk's key at its first start; the host checks the manifest's
# signature above with the public key, using OpenSSL.
signpad key show > /run/kiosk.pem 2> /run/kiosk.fingerprint
fingerprint=$(sed -n 's/^sha256 //p' /run/kiosk.fingerprint)
say "CHECK signingkey owner $(stat -c '%U:%G' /var/lib/signpad/signing.key) mode $(stat -c '%a' /var/lib/signpad/signing.key) made $(logged 'signing key made') named $(logged "sha256=${fingerprint:-none}")"
say "FILE kiosk.pem"
base64 /run/kiosk.pem
say "END"
signpad verify --key /run/kiosk.pem "$exports" > /run/verify.out 2>&1
say "CHECK verify exit $? ok $(grep -c '^OK ' /run/verify.out) manifests $(ls "$exports"/*.meta.json | wc -l)"
# The kiosk's memory once it has shown, drawn, signed and exported a signature: its peak
# (VmHWM) and, as that peak's parts, what it holds now (kB).
say "CHECK memory $(awk '/^(VmHWM|VmRSS|RssAnon|RssFile|RssShmem):/ { sub(":", "", $1); printf "%s %s ", $1, $2 }' "/proc/$(prop MainPID)/status")"
