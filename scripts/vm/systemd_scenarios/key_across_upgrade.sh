# The key survives a restart and an upgrade of the package (the same build, its version raised),
# and signs the signature taken after them.
systemctl start signpad
wait_for 60 running
systemctl restart signpad
wait_for 60 running
restarted=$(signpad key show 2>&1 >/dev/null | sed -n 's/^sha256 //p')
dpkg -i /usr/share/signpad-vm/signpad-upgrade.deb > /run/upgrade.out 2>&1
upgrade_exit=$?
wait_for 60 running
upgraded=$(signpad key show 2>&1 >/dev/null | sed -n 's/^sha256 //p')
before=$(exported_records)
play /usr/share/signpad-vm/signature.evemu
play /usr/share/signpad-vm/tap-done.evemu
wait_for 10 above "$before" exported_records
sleep 0.5
signpad verify --key /run/kiosk.pem "$exports" > /run/verify-after.out 2>&1
verify_exit=$?
say "CHECK keykept $(state) upgrade $upgrade_exit version $(dpkg-query -W -f='${Version}' signpad) made $(logged 'signing key made') first ${fingerprint:-none} restarted ${restarted:-none} upgraded ${upgraded:-none} manifests_before $before verify $verify_exit ok $(grep -c '^OK ' /run/verify-after.out) manifests $(ls "$exports"/*.meta.json | wc -l)"
systemctl stop signpad
