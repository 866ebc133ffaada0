// GTKWave save files for the FST waveforms of the tests and of `simt run --wave`: named
// groups of signals, opened with the dump (gtkwave FILE.fst FILE.gtkw).
#pragma once

#include <string>
#include <vector>

namespace simt::wave {

struct WaveGroup {
  std::string name;
  std::vector<std::string> signals;
};

// Signal path in a Verilator FST: TOP.<top module>.<name>[w-1:0].
std::string waveSignal(const std::string& top, const std::string& name, int width = 1);
void writeGtkwSave(const std::string& gtkwPath, const std::string& fstPath,
                   const std::vector<WaveGroup>& groups);

}  // namespace simt::wave
