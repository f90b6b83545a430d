// kic-desktop.cpp - how KDE Frameworks 5 reads .desktop files: KService
// (the menu's entries, ksycoca) loads each with KDesktopFile, that is
// KConfig, whose parser skips a line it cannot parse and reads on.
//
//   kic-desktop FILE...
//
// prints, for each FILE, FILE<TAB>HIDDEN<TAB>ICON: HIDDEN is 1 when
// [Desktop Entry] Hidden= is true (KService's m_bDeleted), ICON is
// KDesktopFile::readIcon() (the "Icon" entry of [Desktop Entry], empty
// when there is none).  For tests/integration/desktop-kconfig.sh, which
// compares kde-icon-cache's reading of the same files (desktop.c) with it.
// Run it in a hermetic environment (XDG_CONFIG_HOME and XDG_CONFIG_DIRS
// of a scratch directory): KConfig reads no other file for an absolute path.
#include <KConfigGroup>
#include <KDesktopFile>

#include <QCoreApplication>
#include <QString>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);

    for (int i = 1; i < argc; i++) {
        const KDesktopFile file(QString::fromLocal8Bit(argv[i]));
        const bool hidden = file.desktopGroup().readEntry("Hidden", false);

        std::printf("%s\t%d\t%s\n", argv[i], hidden ? 1 : 0, file.readIcon().toUtf8().constData());
    }
    return 0;
}
