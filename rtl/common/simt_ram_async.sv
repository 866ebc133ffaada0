// Small memory with asynchronous reads: one write per cycle, NumRd read ports that see the
// stored word in the cycle they are addressed (a write lands at the clock edge). Yosys maps
// it to LUT RAM where the part has it (ECP5 TRELLIS_DPR16X4, Xilinx RAM32M/RAM64M, one copy
// per read port) and to flip-flops with read multiplexers where it has not (iCE40). It holds
// state whose reads must not move a cycle (the barrier table's per-entry fields, the
// divergence unit's per-warp state): the timing of a register array, the area of a RAM.
//
// A RAM has no reset. With ResetValid = 0 a word never written reads as whatever the part
// powers up with: users read only words they wrote (the barrier table reads an entry's fields
// only while the entry is claimed or its origin is set). With ResetValid = 1 a valid bit per
// word (flip-flops with reset) makes every word read as ResetWord until it is written after
// reset: the behaviour of a register array with a reset value, for one LUT per read bit.
// With NumWe > 1 the word is NumWe parts of Width / NumWe bits, each written with its own
// enable (the barrier table's thread state: a warp's row written for some of its threads);
// a write then needs no read of the word it changes. ResetValid needs NumWe = 1 (a part
// written would make the whole word valid).
// One word (Depth = 1) is a plain register, reset to ResetWord when ResetValid is set. Each
// read port is its own assignment, so a port whose address depends on another's data is no
// combinational loop to the simulator.
module simt_ram_async #(
  parameter int Width = 16,
  parameter int Depth = 16,
  parameter int NumRd = 1,
  parameter int NumWe = 1,         // write enables, each for Width / NumWe bits
  // Yosys's ram_style for the memory: "auto" lets it choose (LUT RAM or flip-flops by its
  // cost), "distributed" asks for LUT RAM even at a few words (a part without it, iCE40,
  // then fails to map: a board top sets it for its own part).
  /* verilator lint_off UNUSEDPARAM */  // (an attribute: read by synthesis, not simulation)
  parameter RamStyle = "auto",
  /* verilator lint_on UNUSEDPARAM */
  parameter bit ResetValid = 1'b0,
  parameter logic [Width-1:0] ResetWord = '0,
  localparam int AddrW = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int PartW = Width / NumWe
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,    // with ResetValid, and for the assertions
  input  logic [NumWe-1:0]       we_i,     // part k: wdata_i[k*PartW +: PartW]
  input  logic [AddrW-1:0]       waddr_i,
  input  logic [Width-1:0]       wdata_i,
  input  logic [NumRd*AddrW-1:0] raddr_i,   // port p at [p*AddrW +: AddrW]
  output logic [NumRd*Width-1:0] rdata_o    // port p at [p*Width +: Width]
);

  (* ram_style = RamStyle *) logic [Width-1:0] mem [Depth];

  if (Depth > 1) begin : g_mem
    always_ff @(posedge clk_i) begin
      for (int k = 0; k < NumWe; k++) begin
        if (we_i[k]) mem[waddr_i][k*PartW +: PartW] <= wdata_i[k*PartW +: PartW];
      end
    end
    if (ResetValid) begin : g_valid
      logic [Depth-1:0] valid_d, valid_q;
      always_comb begin
        valid_d = valid_q;
        if (we_i[0]) valid_d[waddr_i] = 1'b1;
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) valid_q <= '0;
        else         valid_q <= valid_d;
      end
      for (genvar p = 0; p < NumRd; p++) begin : g_rd
        assign rdata_o[p*Width +: Width] = valid_q[raddr_i[p*AddrW +: AddrW]] ?
                                           mem[raddr_i[p*AddrW +: AddrW]] : ResetWord;
      end
    end else begin : g_plain
      logic unused_rst;
      assign unused_rst = rst_ni;
      for (genvar p = 0; p < NumRd; p++) begin : g_rd
        assign rdata_o[p*Width +: Width] = mem[raddr_i[p*AddrW +: AddrW]];
      end
    end
  end else begin : g_reg
    // One word: a register; the (1-bit) addresses are not used.
    logic unused_addr;
    assign unused_addr = ^{waddr_i, raddr_i};
    if (ResetValid) begin : g_rst
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)      mem[0] <= ResetWord;
        else if (we_i[0]) mem[0] <= wdata_i;
      end
    end else begin : g_norst
      logic unused_rst;
      assign unused_rst = rst_ni;
      always_ff @(posedge clk_i) begin
        for (int k = 0; k < NumWe; k++) begin
          if (we_i[k]) mem[0][k*PartW +: PartW] <= wdata_i[k*PartW +: PartW];
        end
      end
    end
    assign rdata_o = {NumRd{mem[0]}};
  end

`ifdef VERILATOR
  // A word in whole parts; a word's validity needs it written whole.
  initial begin
    assert (Width % NumWe == 0 && (!ResetValid || NumWe == 1))
      else $error("ram_async: Width must be a multiple of NumWe; ResetValid needs NumWe = 1");
  end
  // (Out of reset: before it, a board's reset synchronizer may still hold random state and
  // its users' write enables with it.)
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (we_i == '0 || int'(waddr_i) < Depth) else $error("ram_async: write beyond depth");
    end
  end
`endif

endmodule
