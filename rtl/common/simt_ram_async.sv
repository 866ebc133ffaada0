// Small memory with asynchronous reads: one write per cycle, NumRd read ports that see the
// stored word in the cycle they are addressed (a write lands at the clock edge), no reset.
// Yosys maps it to LUT RAM where the part has it (ECP5 TRELLIS_DPR16X4, Xilinx RAM32M/RAM64M,
// one copy per read port) and to flip-flops with read multiplexers where it has not (iCE40).
// It holds state whose reads must not move a cycle (the barrier table's per-entry fields):
// the timing is that of a register array, the area that of a RAM. Words never written read as
// whatever the part powers up with: users read only words they wrote (the barrier table reads
// an entry's fields only while the entry is claimed or its origin is set).
module simt_ram_async #(
  parameter int Width = 16,
  parameter int Depth = 16,
  parameter int NumRd = 1,
  localparam int AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic                   clk_i,
  input  logic                   we_i,
  input  logic [AddrW-1:0]       waddr_i,
  input  logic [Width-1:0]       wdata_i,
  input  logic [NumRd*AddrW-1:0] raddr_i,   // port p at [p*AddrW +: AddrW]
  output logic [NumRd*Width-1:0] rdata_o    // port p at [p*Width +: Width]
);

  logic [Width-1:0] mem [Depth];

  if (Depth > 1) begin : g_mem
    always_ff @(posedge clk_i) begin
      if (we_i) mem[waddr_i] <= wdata_i;
    end
    always_comb begin
      for (int p = 0; p < NumRd; p++) begin
        rdata_o[p*Width +: Width] = mem[raddr_i[p*AddrW +: AddrW]];
      end
    end
  end else begin : g_reg
    // One word: a register; the (1-bit) addresses are not used.
    logic unused_addr;
    assign unused_addr = ^{waddr_i, raddr_i};
    always_ff @(posedge clk_i) begin
      if (we_i) mem[0] <= wdata_i;
    end
    always_comb begin
      for (int p = 0; p < NumRd; p++) rdata_o[p*Width +: Width] = mem[0];
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    assert (!we_i || int'(waddr_i) < Depth) else $error("ram_async: write beyond depth");
  end
`endif

endmodule
