// The L1 data cache's line store: one row per (set, way), one line wide, a synchronous read
// and a write with byte enables per cycle, no reset, so Yosys maps it to block RAM with byte
// write enables (Xilinx RAMB, iCE40 SB_RAM40_4K). The read data stays until the next read.
// A read of the row written in the same cycle is not allowed (asserted; the cache never
// does it), and no_rw_check tells Yosys so (no collision bypass logic around the RAMs), as
// in simt_ram_1r1w.
module simt_l1_data_ram #(
  parameter int  Bytes = 64,
  parameter int  Depth = 256,
  localparam int AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic               clk_i,
  input  logic               we_i,
  input  logic [AddrW-1:0]   waddr_i,
  input  logic [Bytes-1:0]   be_i,
  input  logic [Bytes*8-1:0] wdata_i,
  input  logic               re_i,
  input  logic [AddrW-1:0]   raddr_i,
  output logic [Bytes*8-1:0] rdata_o
);

  (* no_rw_check *)
  logic [Bytes*8-1:0] mem [Depth];

  always_ff @(posedge clk_i) begin
    for (int b = 0; b < Bytes; b++) begin
      if (we_i && be_i[b]) mem[waddr_i][b*8 +: 8] <= wdata_i[b*8 +: 8];
    end
  end

  always_ff @(posedge clk_i) begin
    if (re_i) rdata_o <= mem[raddr_i];
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    assert (!(we_i && re_i && waddr_i == raddr_i))
      else $error("l1_data_ram: read and write of one row in one cycle");
  end
`endif

endmodule
