#include "common/gtkw.h"

#include <fstream>

namespace simt::wave {

std::string waveSignal(const std::string& top, const std::string& name, int width) {
  std::string s = "TOP." + top + "." + name;
  if (width > 1) s += "[" + std::to_string(width - 1) + ":0]";
  return s;
}

void writeGtkwSave(const std::string& gtkwPath, const std::string& fstPath,
                   const std::vector<WaveGroup>& groups) {
  std::ofstream f(gtkwPath);
  f << "[dumpfile] \"" << fstPath << "\"\n";
  f << "[savefile] \"" << gtkwPath << "\"\n";
  f << "[timestart] 0\n";
  f << "[sst_width] 260\n[signals_width] 280\n";
  for (const auto& g : groups) {
    f << "@800200\n-" << g.name << "\n";  // open group
    for (const auto& s : g.signals) f << "@22\n" << s << "\n";  // hex display
    f << "@1000200\n-" << g.name << "\n";  // close group
  }
}

}  // namespace simt::wave
