// Simple dual-port RAM: one synchronous read, one write per cycle, no reset, so Yosys maps it
// to block RAM (iCE40 SB_RAM40_4K, ECP5 DP16KD, Xilinx RAMB). A read of the address written
// in the same cycle is undefined: users must not do it (asserted). no_rw_check tells Yosys so;
// without it Yosys builds old-data bypass logic around each RAM (ECP5, 64 x 32: 39 LUT4 and
// 72 flip-flops; the register file has 64 of them).
// SpecRead: the user may read the address written when it discards that read's data (a
// speculative read; the user asserts when it does). Not asserted here; in simulation the
// data of such a read is poisoned (the old word inverted), so a use of it shows.
module simt_ram_1r1w #(
  parameter int Width = 64,
  parameter int Depth = 256,
  parameter bit SpecRead = 1'b0,
  localparam int AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             re_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o
);

  (* no_rw_check *)
  logic [Width-1:0] mem [Depth];

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
  end

  logic [Width-1:0] rdata_q;
  always_ff @(posedge clk_i) begin
    if (re_i) rdata_q <= mem[raddr_i];
  end

`ifdef VERILATOR
  logic poison_q;  // the last read met the write of its address (SpecRead)
  always_ff @(posedge clk_i) begin
    if (re_i) poison_q <= SpecRead && we_i && waddr_i == raddr_i;
  end
  assign rdata_o = poison_q ? ~rdata_q : rdata_q;
  always_ff @(posedge clk_i) begin
    if (!SpecRead) assert (!(we_i && re_i && waddr_i == raddr_i))
      else $error("ram_1r1w: read and write of one address in one cycle");
  end
`else
  assign rdata_o = rdata_q;
`endif

endmodule
