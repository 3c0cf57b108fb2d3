# An export folder inside a network share, set up as the README says: a drop-in adds the mount
# point to ReadWritePaths=, the configuration names a folder inside it with create_directory =
# false. The share is mounted only after signpad started (its server down at boot): the signature
# confirmed before waits in the spool with nothing on local disk under the mount point, and is
# written to the share once it is mounted, through the hardened unit's mount namespace.
mkdir -p /srv/share /etc/systemd/system/signpad.service.d
printf '[Service]\nReadWritePaths=/srv/share\n' > /etc/systemd/system/signpad.service.d/share.conf
cp /etc/signpad/signpad.toml /run/signpad.toml.orig
sed -i -e 's|^directory = .*|directory = "/srv/share/signatures"|' -e 's/^create_directory = .*/create_directory = false/' /etc/signpad/signpad.toml
systemctl daemon-reload
systemctl start signpad
wait_for 60 running
play /usr/share/signpad-vm/signature.evemu
play /usr/share/signpad-vm/tap-done.evemu
wait_for 10 sh -c "ls /var/lib/signpad/spool/*.spool.json >/dev/null 2>&1"
say "CHECK shareaway $(state) local $(ls -A /srv/share | wc -l) spool $(ls /var/lib/signpad/spool | grep -c 'spool.json$')"
# The kiosk renamed and the ink recoloured by a reload while the signature waits in the spool: the
# reload starts signpad anew, which still writes it as it was signed, under the name it had then.
sed -i -e 's/^kiosk_name = .*/kiosk_name = "renamed-kiosk"/' -e 's/^color = "#000000"/color = "#C00000"/' /etc/signpad/signpad.toml
reloads=$(logged "ready:")
systemctl reload signpad
wait_for 30 above "$reloads" logged "ready:"
wait_for 10 running
mount -t tmpfs -o mode=0755 share /srv/share
install -d -o signpad -g signpad -m 0750 /srv/share/signatures
wait_for 30 sh -c "ls /srv/share/signatures/*.meta.json >/dev/null 2>&1"
sleep 0.5
say "CHECK sharemounted files $(ls /srv/share/signatures | wc -l) spool $(ls /var/lib/signpad/spool | grep -c 'spool.json$')"
meta=$(ls /srv/share/signatures/*.meta.json | head -1)
say "CHECK sharekept kiosk $(grep -o '"kiosk" : "[^"]*"' "$meta" | cut -d'"' -f4) ink $(grep -o '"penColor":"[^"]*"' "${meta%.meta.json}.json" | head -1 | cut -d'"' -f4 | tr -d ' ') renamed $(logged 'kiosk=renamed-kiosk')"
systemctl stop signpad
umount /srv/share
say "CHECK shareunmounted local $(ls -A /srv/share | wc -l)"
# The mount point itself as the export folder, left root's as mkdir made it: while the share is
# not mounted signpad may not write there, so the signature waits in the spool; the mount gives
# signpad the folder, and it is written there.
sed -i -e 's|^directory = .*|directory = "/srv/share"|' /etc/signpad/signpad.toml
systemctl start signpad
wait_for 60 running
play /usr/share/signpad-vm/signature.evemu
play /usr/share/signpad-vm/tap-done.evemu
wait_for 10 sh -c "ls /var/lib/signpad/spool/*.spool.json >/dev/null 2>&1"
say "CHECK mountpointaway $(state) local $(ls -A /srv/share | wc -l) spool $(ls /var/lib/signpad/spool | grep -c 'spool.json$') owner $(stat -c %U:%a /srv/share)"
mount -t tmpfs -o "mode=0750,uid=$(id -u signpad),gid=$(id -g signpad)" share /srv/share
wait_for 30 sh -c "ls /srv/share/*.meta.json >/dev/null 2>&1"
sleep 0.5
say "CHECK mountpointmounted files $(ls /srv/share | wc -l) spool $(ls /var/lib/signpad/spool | grep -c 'spool.json$')"
systemctl stop signpad
umount /srv/share
say "CHECK mountpointunmounted local $(ls -A /srv/share | wc -l)"
cp /run/signpad.toml.orig /etc/signpad/signpad.toml
rm /etc/systemd/system/signpad.service.d/share.conf
systemctl daemon-reload
