// kic-desktop - what KDE Frameworks 5 reads from .desktop files
//
//   kic-desktop FILE...     (or the file names on standard input, one a line)
//
// prints for each FILE: FILE <tab> ICON <tab> hidden|shown, ICON being
// KDesktopFile::readIcon() ("-" when empty) and hidden|shown the
// [Desktop Entry] Hidden= key read as KService reads it
// (KConfigGroup::readEntry("Hidden", false)).  KDE's menu (KService, built
// by kbuildsycoca5) takes both through KDesktopFile, i.e. KConfig's
// parser, which skips the lines it cannot read; this helper lets the tests
// compare kde-icon-cache's reading of the same files with KDE's.
#include <KConfigGroup>
#include <KDesktopFile>
#include <QCoreApplication>
#include <QString>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

static void messageHandler(QtMsgType type, const QMessageLogContext &, const QString &msg)
{
    // KConfig's "Invalid entry" warnings are what is under test, not output
    if (type == QtFatalMsg)
        std::fprintf(stderr, "%s\n", qPrintable(msg));
}

int main(int argc, char **argv)
{
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i)
        files.push_back(argv[i]);
    if (files.empty()) {
        std::string line;
        while (std::getline(std::cin, line))
            if (!line.empty())
                files.push_back(line);
    }
    qInstallMessageHandler(messageHandler);
    int qargc = 1;
    char arg0[] = "kic-desktop";
    char *qargv[] = {arg0, nullptr};
    QCoreApplication app(qargc, qargv);
    for (const std::string &file : files) {
        const KDesktopFile desktop(QString::fromStdString(file));
        const QString icon = desktop.readIcon();
        const bool hidden = desktop.desktopGroup().readEntry("Hidden", false);
        std::printf("%s\t%s\t%s\n", file.c_str(), icon.isEmpty() ? "-" : icon.toUtf8().constData(),
                    hidden ? "hidden" : "shown");
    }
    return 0;
}
