#!/usr/bin/env bash
# The system packages the Python install needs: ICU's headers, pkg-config and a C++
# compiler, because PyICU (player names' confusable skeletons, TR39) builds from source.
# Installs them with apt-get when they are missing and this user may (root); otherwise says
# what to install and fails.
set -euo pipefail
if pkg-config --exists icu-i18n 2>/dev/null && command -v g++ >/dev/null 2>&1; then
    exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq libicu-dev pkg-config g++ >/dev/null
    exit 0
fi
echo "paiju needs ICU's headers, pkg-config and g++ to install PyICU:" >&2
echo "  Debian/Ubuntu: apt-get install libicu-dev pkg-config g++" >&2
echo "  macOS (Homebrew): brew install icu4c pkg-config" >&2
exit 1
