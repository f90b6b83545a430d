# Included from the top-level Makefile; paths are relative to the repo top.
# Builds the KF5 oracle helper (needs libkf5iconthemes-dev, qtbase5-dev, pkg-config).
ORACLE_BIN := tests/oracle/kic-oracle tests/oracle/kic-desktop
ORACLE_CXXFLAGS = -O1 -fPIC -std=c++17 $(shell $(PKG_CONFIG) --cflags Qt5Gui Qt5Core) -I/usr/include/KF5/KIconThemes
ORACLE_LIBS = -lKF5IconThemes $(shell $(PKG_CONFIG) --libs Qt5Gui Qt5Core)

tests/oracle/kic-oracle: tests/oracle/kic-oracle.cpp tests/oracle/oracle.mk
	$(CXX) $(ORACLE_CXXFLAGS) -o $@ $< $(ORACLE_LIBS)

# How KF5's KConfig reads a .desktop file (KDesktopFile, as KService does)
tests/oracle/kic-desktop: tests/oracle/kic-desktop.cpp tests/oracle/oracle.mk
	$(CXX) -O1 -fPIC -std=c++17 $(shell $(PKG_CONFIG) --cflags Qt5Core) -I/usr/include/KF5/KConfigCore -I/usr/include/KF5 \
	  -o $@ $< -lKF5ConfigCore $(shell $(PKG_CONFIG) --libs Qt5Core)

.PHONY: oracle oracle-clean
oracle: $(ORACLE_BIN)
oracle-clean:
	rm -f $(ORACLE_BIN)
