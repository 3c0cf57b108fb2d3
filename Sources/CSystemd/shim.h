#pragma once
#include <systemd/sd-daemon.h>
