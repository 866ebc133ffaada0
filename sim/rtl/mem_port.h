// model::LineMemory on a verilated requester's memory port (docs/blocks/mem_port.md): the
// port's signals to and from LineMemory's transactions, for any top with the port's names
// (the SM core, its load/store unit alone). Widths come from the top: a line of up to 64
// bytes (byte enables in one integer, data in a VlWide).
#pragma once

#include <cstddef>

#include "model/mem/line_memory.h"

namespace simt::rtl {

// The request on the port this cycle (valid and ready are the caller's to check).
template <class Dut>
model::LineMemory::Request memRequestOf(const Dut& d, size_t lineBytes) {
  model::LineMemory::Request r;
  r.id = d.mem_req_id_o;
  r.write = d.mem_req_we_o;
  r.amo = d.mem_req_amo_o;
  r.addr = d.mem_req_addr_o;
  r.cmp = d.mem_req_cmp_o;
  r.be.resize(lineBytes);
  r.wdata.resize(lineBytes / 4);
  for (size_t b = 0; b < lineBytes; ++b) r.be[b] = (d.mem_req_be_o >> b) & 1u;
  for (size_t w = 0; w < lineBytes / 4; ++w) r.wdata[w] = d.mem_req_wdata_o[w];
  return r;
}

// Drives the memory's side for this cycle: ready, and the response offered (or none).
template <class Dut>
void offerMemory(Dut& d, const model::LineMemory& m) {
  const model::LineMemory::Response* rsp = m.offered();
  d.mem_req_ready_i = m.ready();
  d.mem_rsp_valid_i = rsp != nullptr;
  d.mem_rsp_id_i = rsp ? rsp->id : 0;
  d.mem_rsp_err_i = rsp && rsp->err;
  for (size_t w = 0; w < m.lineBytes() / 4; ++w) d.mem_rsp_rdata_i[w] = rsp ? rsp->rdata[w] : 0;
}

}  // namespace simt::rtl
