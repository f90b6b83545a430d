// kic-oracle: ask the real KDE Frameworks KIconLoader which file it picks for
// an icon name at given pixel sizes (and, optionally, what it renders).
// One source for both generations: built against KF5 and Qt 5 here
// (tests/oracle/oracle.mk) as kic-oracle, and against KF6 and Qt 6 inside
// the Debian 13 root by tests/oracle/kf6/make-root.sh as kic-oracle6.
//
//   kic-oracle[6] [--sizes 16,22,32,48] [--app NAME] [--markers] [--render]
//              [--debug] [--version] [--resources] [--icon-item] [NAME...]
//
// Names are read from stdin, one per line, when none are given.
// Output: NAME<TAB>SIZE<TAB>PATH[<TAB>RENDERHASH]   (PATH "-" when not found)
//
// --markers  calls access("/@marker@/<NAME>/<SIZE>", F_OK) before each lookup
//            and access("/@marker@/@end@/0", F_OK) after the last one, so an
//            strace of the process can be split per lookup.
// --render   adds a 4th column: "<w>x<h>:<sha1 of ARGB32 bytes>" of
//            loadIcon(name, Desktop, size, DefaultState, {}, nullptr, true),
//            "-" when the pixmap is null.
// --debug    prints the loader's app name, search paths, theme and group
//            sizes to stderr.
// --resources lists every file under ":/icons" (the library's resources:
//            the embedded breeze, hicolor's index.theme) once the loader
//            exists, one path a line, and exits.
// --icon-item asks what Plasma 5's IconItem asks before KIconLoader's
//            lookup: the loader's current theme alone, KIconTheme::iconPath()
//            of NAME.svg and then of NAME.svgz at SIZE with MatchBest
//            (plasma-framework@v5.103.0 src/declarativeimports/core/
//            iconitem.cpp:175-181), instead of KIconLoader::iconPath().
// --version  prints the KIconThemes version it was built against and the
//            Qt version it runs with, and exits.
//
// A path from the library's resources (KF6's embedded breeze of
// libKF6BreezeIcons, kiconthemes' own hicolor index) starts with ":/".
//
// Must be run with QT_QPA_PLATFORM=offscreen (set here if unset).

#include <KIconLoader>
#include <KIconTheme>
#include <kiconthemes_version.h>

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDirIterator>
#include <QGuiApplication>
#include <QIcon>
#include <QImage>
#include <QPixmap>
#include <QString>
#include <QtGlobal>
#include <QStringList>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

#if QT_VERSION >= QT_VERSION_CHECK(6, 0, 0)
#define PROGRAM "kic-oracle6"
#else
#define PROGRAM "kic-oracle"
#endif

static void usage()
{
    std::fprintf(stderr,
                 "usage: %s [--sizes 16,22,32,48] [--app NAME] [--markers] [--render] [--debug] [--version] [--resources] [--icon-item] [NAME...]\n",
                 PROGRAM);
    std::exit(2);
}

// The marker path is only ever passed to access(); it never exists.
static void marker(const std::string &name, int size)
{
    std::string m = "/@marker@/" + name + "/" + std::to_string(size);
    (void)access(m.c_str(), F_OK);
}

static std::string renderHash(KIconLoader *loader, const QString &name, int size, const QString &expectPath)
{
    QString used;
    const QPixmap pix =
        loader->loadIcon(name, KIconLoader::Desktop, size, KIconLoader::DefaultState, QStringList(), &used, true);
    if (used != expectPath) {
        std::fprintf(stderr, "%s: warning: %s@%d: loadIcon used '%s', iconPath gave '%s'\n", PROGRAM,
                     qPrintable(name), size, qPrintable(used), qPrintable(expectPath));
    }
    if (pix.isNull()) {
        return "-";
    }
    const QImage img = pix.toImage().convertToFormat(QImage::Format_ARGB32);
    QCryptographicHash h(QCryptographicHash::Sha1);
    // hash row by row: bytesPerLine may contain padding
    for (int y = 0; y < img.height(); ++y) {
#if QT_VERSION >= QT_VERSION_CHECK(6, 0, 0)
        h.addData(QByteArrayView(reinterpret_cast<const char *>(img.constScanLine(y)), img.width() * 4));
#else
        h.addData(reinterpret_cast<const char *>(img.constScanLine(y)), img.width() * 4);
#endif
    }
    return std::to_string(img.width()) + "x" + std::to_string(img.height()) + ":" + h.result().toHex().toStdString();
}

static bool g_debug = false;

// Qt/KDE warnings (e.g. qt.svg parse complaints while rendering) are dropped
// unless --debug is given.
static void messageHandler(QtMsgType type, const QMessageLogContext &, const QString &msg)
{
    if (g_debug || type == QtFatalMsg)
        std::fprintf(stderr, "%s\n", qPrintable(msg));
}

int main(int argc, char **argv)
{
    std::vector<int> sizes = {16, 22, 32, 48};
    std::string app = "plasmashell";
    bool markers = false, render = false, debug = false, resources = false, iconItem = false;
    std::vector<std::string> names;

    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--sizes" && i + 1 < argc) {
            sizes.clear();
            std::string s = argv[++i];
            size_t p = 0;
            while (p <= s.size()) {
                size_t q = s.find(',', p);
                if (q == std::string::npos)
                    q = s.size();
                const std::string tok = s.substr(p, q - p);
                if (!tok.empty()) {
                    const int v = std::atoi(tok.c_str());
                    if (v <= 0)
                        usage();
                    sizes.push_back(v);
                }
                p = q + 1;
            }
            if (sizes.empty())
                usage();
        } else if (a == "--app" && i + 1 < argc) {
            app = argv[++i];
        } else if (a == "--markers") {
            markers = true;
        } else if (a == "--render") {
            render = true;
        } else if (a == "--debug") {
            debug = true;
        } else if (a == "--resources") {
            resources = true;
        } else if (a == "--icon-item") {
            iconItem = true;
        } else if (a == "--version") {
            std::printf("kiconthemes %s (built against), Qt %s (running)\n", KICONTHEMES_VERSION_STRING, qVersion());
            return 0;
        } else if (a == "--") {
            for (++i; i < argc; ++i)
                names.push_back(argv[i]);
        } else if (a.size() > 1 && a[0] == '-' && a[1] == '-') {
            usage();
        } else {
            names.push_back(a);
        }
    }
    if (names.empty() && !resources) {
        std::string line;
        while (std::getline(std::cin, line)) {
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            if (!line.empty())
                names.push_back(line);
        }
    }

    // Give stdout its buffer now: glibc would otherwise fstat(1) on the first
    // write, i.e. inside the first counted lookup window.
    static char outbuf[1 << 16];
    std::setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);

    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);

    // The application name must be set before the loader exists: KIconLoader
    // takes it for the "<app>/pics" User search path and for the
    // app-specific hicolor bases "<data>/<app>/icons/hicolor".
    g_debug = debug;
    qInstallMessageHandler(messageHandler);
    QCoreApplication::setApplicationName(QString::fromStdString(app));
    int qargc = 1;
    char arg0[] = PROGRAM;
    char *qargv[] = {arg0, nullptr};
    QGuiApplication qapp(qargc, qargv);
    QCoreApplication::setApplicationName(QString::fromStdString(app));

    KIconLoader *loader = KIconLoader::global();

    // Warm-up: builds the themes, the generic-icons table and the KDE config,
    // so none of that lands in the first counted lookup.
    (void)loader->iconPath(QStringLiteral("kic-oracle-warm-up-no-such-icon"), -sizes[0], true);
    if (render)
        (void)renderHash(loader, QStringLiteral("kic-oracle-warm-up-no-such-icon"), sizes[0], QString());

    if (resources) {
        QDirIterator it(QStringLiteral(":/icons"), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext())
            std::printf("%s\n", qPrintable(it.next()));
        std::fflush(stdout);
        return 0;
    }

    if (debug) {
        std::fprintf(stderr, "app=%s loader=%s\n", qPrintable(QCoreApplication::applicationName()),
                     qPrintable(loader->objectName()));
        std::fprintf(stderr, "searchPaths=%s\n", qPrintable(loader->searchPaths().join(QLatin1Char(':'))));
        std::fprintf(stderr, "current=%s theme=%s\n", qPrintable(KIconTheme::current()),
                     loader->theme() ? qPrintable(loader->theme()->internalName()) : "(none)");
        std::fprintf(stderr, "QIcon::themeName=%s fallbackThemeName=%s\n", qPrintable(QIcon::themeName()),
                     qPrintable(QIcon::fallbackThemeName()));
        std::fprintf(stderr, "QIcon::fallbackSearchPaths=[%s]\n",
                     qPrintable(QIcon::fallbackSearchPaths().join(QLatin1Char(':'))));
        std::fprintf(stderr, "QIcon::themeSearchPaths=[%s]\n",
                     qPrintable(QIcon::themeSearchPaths().join(QLatin1Char(':'))));
        std::fprintf(stderr, "Desktop=%d Small=%d\n", loader->currentSize(KIconLoader::Desktop),
                     loader->currentSize(KIconLoader::Small));
        std::fflush(stderr);
    }

    for (const std::string &n : names) {
        const QString qn = QString::fromStdString(n);
        for (int s : sizes) {
            if (markers)
                marker(n, s);
            QString path;
            if (!iconItem) {
                path = loader->iconPath(qn, -s, true);
            } else if (loader->theme()) {
                path = loader->theme()->iconPath(qn + QStringLiteral(".svg"), s, KIconLoader::MatchBest);
                if (path.isEmpty())
                    path = loader->theme()->iconPath(qn + QStringLiteral(".svgz"), s, KIconLoader::MatchBest);
            }
            std::string out = n + "\t" + std::to_string(s) + "\t" + (path.isEmpty() ? std::string("-") : path.toStdString());
            if (render) {
                // loadIcon caches pixmaps per key; the key contains the size,
                // so different sizes never share an entry.
                out += "\t" + renderHash(loader, qn, s, path);
            }
            out += "\n";
            std::fputs(out.c_str(), stdout);
        }
    }
    if (markers)
        marker("@end@", 0);
    std::fflush(stdout);
    return 0;
}
