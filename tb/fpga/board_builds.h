// The verilated builds of the FPGA top in the tests and the parameters each was verilated
// with (CMakeLists.txt's -G options), as the host reads them from the top's geometry words
// (docs/blocks/fpga_top.md): the tests compare what the board reports with these.
#pragma once

#include "host/device_engine.h"

namespace simt::tb {

// Which verilated build of the top a board runs: the top's defaults, or other parameters
// (CMakeLists.txt, Vsimt_ulx3s_board: the ULX3S board top), for the host's geometry read.
enum class BoardBuild { Default, Other };

// The parameters each build was verilated with (CMakeLists.txt's -G options), as the host
// reads them from the top's geometry words.
inline host::DeviceGeometry verilatedGeometry(BoardBuild b) {
  host::DeviceGeometry g;
  const bool o = b == BoardBuild::Other;
  g.warpSlots = o ? 8 : 2;
  g.residentCtas = 2;
  g.queueDepth = o ? 32 : 16;
  g.imemWords = o ? 512 : 256;
  g.paramWords = o ? 32 : 64;
  g.sharedBytes = o ? 2048 : 1024;
  g.dataWords = o ? 4096 : 2048;
  g.fpLanes = o;
  g.lineBytes = 16;
  g.barrierSlots = 4;
  g.warpSize = 32;
  g.lanes = o ? 8 : 32;
  g.ctaWarps = o ? 4 : 2;
  return g;
}

}  // namespace simt::tb
