cat > /etc/signpad/office-ended.pem << 'PEM'
-----BEGIN CERTIFICATE-----
MIIBHDCBwgIBATAKBggqhkjOPQQDAjAaMRgwFgYDVQQDDA9WTSBvZmZpY2UgZW5k
ZWQwHhcNMjAwMTAxMDAwMDAwWhcNMzAwMTAxMDAwMDAwWjAaMRgwFgYDVQQDDA9W
TSBvZmZpY2UgZW5kZWQwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQrz8Tnlbww
xVTuohockm6e+b/VTqp/3J/fWEPeoKiWpC2Z86dVYExKciZPpRRUqdpsUvCUpEs/
iQnifmhBGO1DMAoGCCqGSM49BAMCA0kAMEYCIQDtZGry8nVlTaIJh/tXGJTsdWQP
I29uDlvf16GijLq6CgIhAK2z1F12IfJd2954MCoHfnDNa8sbds4MNA2wr78vyzrK
-----END CERTIFICATE-----
PEM
cat > /etc/signpad/office-renewed.pem << 'PEM'
-----BEGIN CERTIFICATE-----
MIIBITCByAIBAjAKBggqhkjOPQQDAjAcMRowGAYDVQQDDBFWTSBvZmZpY2UgcmVu
ZXdlZDAgFw0yMDAxMDEwMDAwMDBaGA8yMDk5MTIzMTAwMDAwMFowHDEaMBgGA1UE
AwwRVk0gb2ZmaWNlIHJlbmV3ZWQwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAART
raAnBFQR4GWkKTe74LHHIVut6v0E7GqTfQPXlZXlw5DbnBYw9CPRJoffPQnvzxXf
uLMmQohSgl5mHRVMnUuiMAoGCCqGSM49BAMCA0gAMEUCIHiIIaisbSsU+ZYqJ/zK
IA224LXLgrh/RCdVzF0+M0G5AiEA1DfsBCt3X0WbuvAFn2Cc4WCMTiJTSnmxlvsw
qgnkzU8=
-----END CERTIFICATE-----
PEM
chmod 0644 /etc/signpad/office-ended.pem /etc/signpad/office-renewed.pem
cp /etc/signpad/signpad.toml /run/signpad.toml.before-certificate
sed -i 's|^recipient_certificate = .*|recipient_certificate = "/etc/signpad/office-ended.pem"|' /etc/signpad/signpad.toml
readies=$(logged "ready:")
systemctl restart signpad
wait_for 40 above "$readies" logged "ready:"
wait_for 10 running
sleep 2
ask "screendump sd-before-certificate-end"
# The clock past the certificate's end, as if the kiosk had run on for years.
clock_before=$(date +%s)
date -s "2030-06-01 00:00:00" > /dev/null
wait_for 60 above 0 logged "out of service"
sleep 2
ask "screendump sd-out-of-service"
play /usr/share/signpad-vm/signature.evemu
play /usr/share/signpad-vm/tap-done.evemu
sleep 1
ask "screendump sd-out-of-service-touched"
ended=$(logged "out of service")
unwritten=$(signpad request --socket /run/signpad/control.sock --status --json 2>&1 | grep -o '"unwritten":[0-9]*' | cut -d: -f2)
sed -i 's|^recipient_certificate = .*|recipient_certificate = "/etc/signpad/office-renewed.pem"|' /etc/signpad/signpad.toml
readies=$(logged "ready:")
pid_before=$(prop MainPID)
systemctl reload signpad
wait_for 40 above "$readies" logged "ready:"
wait_for 10 running
sleep 2
ask "screendump sd-certificate-renewed"
say "CHECK certificateended $(state) outofservice $ended unwritten ${unwritten:-none} before $pid_before"
date -s "@$(( clock_before + 30 ))" > /dev/null
cp /run/signpad.toml.before-certificate /etc/signpad/signpad.toml
