// Simple dual-port RAM: one synchronous read, one write per cycle, no reset, so Yosys maps it
// to block RAM (iCE40 SB_RAM40_4K, ECP5 DP16KD, Xilinx RAMB). A read of the address written
// in the same cycle is undefined: users must not do it (asserted). no_rw_check tells Yosys so;
// without it Yosys builds old-data bypass logic around each RAM (ECP5, 64 x 32: 39 LUT4 and
// 72 flip-flops; the register file has 64 of them).
module simt_ram_1r1w #(
  parameter int Width = 64,
  parameter int Depth = 256,
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

  always_ff @(posedge clk_i) begin
    if (re_i) rdata_o <= mem[raddr_i];
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    assert (!(we_i && re_i && waddr_i == raddr_i))
      else $error("ram_1r1w: read and write of one address in one cycle");
  end
`endif

endmodule
