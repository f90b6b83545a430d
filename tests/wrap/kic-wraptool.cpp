// kic-wraptool: helper for the wrapper-SVG experiment (tests/wrap/).
//
//   kic-wraptool render [--sizes 16,22,32,48] [--dump DIR] [NAME...]
//       Like tests/oracle/kic-oracle --render (same KIconLoader calls, same
//       hash: "WxH:sha1" of loadIcon(name, Desktop, size, DefaultState, {},
//       nullptr, true) as QImage ARGB32) and, with --dump, also writes that
//       ARGB32 image losslessly to DIR/<NAME>@<SIZE>.png ('/' in NAME -> '%').
//       Output: NAME<TAB>SIZE<TAB>PATH<TAB>HASH.  Names from stdin if none.
//   kic-wraptool cmp A.png B.png
//       Compares two images as ARGB32 (non-premultiplied):
//       "WxH WxH <pixels differing> <max straight ARGB channel diff>
//        <max alpha diff> <max premultiplied channel diff> <pixels whose
//        premultiplied diff > 2> <mean premultiplied |diff| per channel>", or
//       "size WxH WxH" when the sizes differ, "missing" when one is unreadable.
//   kic-wraptool topng IN OUT.png
//       Reads IN with Qt (XPM, PNG, ...) and writes it as a PNG (lossless
//       for 8-bit data: XPM colours are exact RGB, "None" becomes alpha 0).
//   kic-wraptool size FILE
//       "W H" of FILE as QImageReader sees it.
//   kic-wraptool svgrender FILE.svg W H OUT.png
//       Renders FILE with QSvgRenderer-based image reader at WxH (no KDE).
#include <KIconLoader>
#include <KIconTheme>

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QImageReader>
#include <QPixmap>
#include <QString>
#include <QStringList>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

static void messageHandler(QtMsgType type, const QMessageLogContext &, const QString &msg)
{
    if (std::getenv("KIC_WRAP_DEBUG") || type == QtFatalMsg)
        std::fprintf(stderr, "%s\n", qPrintable(msg));
}

static int usage()
{
    std::fprintf(stderr, "usage: kic-wraptool render [--sizes L] [--dump DIR] [NAME...] | cmp A B | topng IN OUT | size FILE\n");
    return 2;
}

static QImage argb(const QImage &i) { return i.convertToFormat(QImage::Format_ARGB32); }

static std::string hashOf(const QImage &img)
{
    QCryptographicHash h(QCryptographicHash::Sha1);
    for (int y = 0; y < img.height(); ++y)
        h.addData(reinterpret_cast<const char *>(img.constScanLine(y)), img.width() * 4);
    return std::to_string(img.width()) + "x" + std::to_string(img.height()) + ":" + h.result().toHex().toStdString();
}

static int cmdRender(int argc, char **argv)
{
    std::vector<int> sizes = {16, 22, 32, 48};
    QString dump;
    std::vector<std::string> names;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--sizes" && i + 1 < argc) {
            sizes.clear();
            for (const QString &t : QString(argv[++i]).split(',', Qt::SkipEmptyParts))
                sizes.push_back(t.toInt());
        } else if (a == "--dump" && i + 1 < argc) {
            dump = argv[++i];
        } else if (a.rfind("--", 0) == 0) {
            return usage();
        } else {
            names.push_back(a);
        }
    }
    if (names.empty()) {
        std::string line;
        while (std::getline(std::cin, line))
            if (!line.empty())
                names.push_back(line);
    }
    if (!dump.isEmpty())
        QDir().mkpath(dump);
    KIconLoader *loader = KIconLoader::global();
    (void)loader->iconPath(QStringLiteral("kic-wrap-warm-up-no-such-icon"), -sizes[0], true);
    for (const std::string &n : names) {
        const QString qn = QString::fromStdString(n);
        for (int s : sizes) {
            const QString path = loader->iconPath(qn, -s, true);
            QString used;
            const QPixmap pix = loader->loadIcon(qn, KIconLoader::Desktop, s, KIconLoader::DefaultState, QStringList(), &used, true);
            std::string h = "-";
            if (!pix.isNull()) {
                const QImage img = argb(pix.toImage());
                h = hashOf(img);
                if (!dump.isEmpty()) {
                    QString f = qn;
                    f.replace('/', '%');
                    img.save(dump + "/" + f + "@" + QString::number(s) + ".png", "PNG");
                }
            }
            std::printf("%s\t%d\t%s\t%s\n", n.c_str(), s, path.isEmpty() ? "-" : qPrintable(path), h.c_str());
        }
    }
    std::fflush(stdout);
    return 0;
}

static int cmdCmp(const char *a, const char *b)
{
    QImage A(QString::fromLocal8Bit(a)), B(QString::fromLocal8Bit(b));
    if (A.isNull() || B.isNull()) {
        std::printf("missing\n");
        return 0;
    }
    if (A.size() != B.size()) {
        std::printf("size %dx%d %dx%d\n", A.width(), A.height(), B.width(), B.height());
        return 0;
    }
    // straight (ARGB32) and premultiplied (what is composited on screen)
    const QImage As = argb(A), Bs = argb(B);
    const QImage Ap = A.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    const QImage Bp = B.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    long ndiff = 0, nbig = 0;
    int maxd = 0, maxa = 0, maxp = 0;
    double sump = 0;
    auto chans = [](QRgb p, int *c) { c[0] = qRed(p); c[1] = qGreen(p); c[2] = qBlue(p); c[3] = qAlpha(p); };
    for (int y = 0; y < As.height(); ++y) {
        const QRgb *ra = reinterpret_cast<const QRgb *>(As.constScanLine(y));
        const QRgb *rb = reinterpret_cast<const QRgb *>(Bs.constScanLine(y));
        const QRgb *pa = reinterpret_cast<const QRgb *>(Ap.constScanLine(y));
        const QRgb *pb = reinterpret_cast<const QRgb *>(Bp.constScanLine(y));
        for (int x = 0; x < As.width(); ++x) {
            if (ra[x] == rb[x])
                continue;
            ++ndiff;
            int ca[4], cb[4], qa[4], qb[4], m = 0, mp = 0;
            chans(ra[x], ca); chans(rb[x], cb); chans(pa[x], qa); chans(pb[x], qb);
            for (int k = 0; k < 4; ++k) {
                m = std::max(m, std::abs(ca[k] - cb[k]));
                mp = std::max(mp, std::abs(qa[k] - qb[k]));
                sump += std::abs(qa[k] - qb[k]);
            }
            maxd = std::max(maxd, m);
            maxa = std::max(maxa, std::abs(ca[3] - cb[3]));
            maxp = std::max(maxp, mp);
            if (mp > 2)
                ++nbig;
        }
    }
    const double mean = sump / (4.0 * As.width() * As.height());
    // WxH WxH ndiff maxStraight maxAlpha maxPremul n(premul>2) meanPremulAbsDiff/channel
    std::printf("%dx%d %dx%d %ld %d %d %d %ld %.3f\n", As.width(), As.height(), Bs.width(), Bs.height(), ndiff, maxd, maxa,
                maxp, nbig, mean);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    qInstallMessageHandler(messageHandler);
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    const std::string cmd = argv[1];
    QCoreApplication::setApplicationName(QStringLiteral("plasmashell"));
    int qargc = 1;
    char arg0[] = "kic-wraptool";
    char *qargv[] = {arg0, nullptr};
    QGuiApplication qapp(qargc, qargv);
    QCoreApplication::setApplicationName(QStringLiteral("plasmashell"));
    if (cmd == "render")
        return cmdRender(argc, argv);
    if (cmd == "cmp" && argc == 4)
        return cmdCmp(argv[2], argv[3]);
    if (cmd == "topng" && argc == 4) {
        QImage i(QString::fromLocal8Bit(argv[2]));
        if (i.isNull()) {
            std::fprintf(stderr, "kic-wraptool: cannot read %s\n", argv[2]);
            return 1;
        }
        if (i.hasAlphaChannel())
            i = argb(i);
        else
            i = i.convertToFormat(QImage::Format_RGB32);
        return i.save(QString::fromLocal8Bit(argv[3]), "PNG") ? 0 : 1;
    }
    if (cmd == "size" && argc == 3) {
        QImageReader r(QString::fromLocal8Bit(argv[2]));
        const QSize s = r.size();
        if (!s.isValid()) {
            std::fprintf(stderr, "kic-wraptool: cannot read %s\n", argv[2]);
            return 1;
        }
        std::printf("%d %d\n", s.width(), s.height());
        return 0;
    }
    if (cmd == "svgrender" && argc == 6) {
        QImageReader r(QString::fromLocal8Bit(argv[2]));
        r.setScaledSize(QSize(std::atoi(argv[3]), std::atoi(argv[4])));
        QImage i = r.read();
        return argb(i).save(QString::fromLocal8Bit(argv[5]), "PNG") ? 0 : 1;
    }
    return usage();
}
