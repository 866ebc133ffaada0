// Load/store unit, coalescer: of the lanes still to request, the lowest (the leader) and
// every other lane whose access falls in the leader's line form one memory request
// (an atomic: the leader alone, since each lane's atomic returns its own old word). A store's
// words are merged in ascending lane order, so where lanes write one word the highest lane's
// data is the one written (ISA.md: lanes take effect in ascending lane order).
//
// Also the word a lane's access takes in its line, which the unit uses to scatter a load's
// response to the lanes.
module simt_sm_lsu_coalesce #(
  parameter int  LineBytes = 64,
  localparam int LineWords = LineBytes / 4,
  localparam int OffW      = $clog2(LineBytes)
) (
  input  logic [31:0]              pend_i,   // lanes still to request
  input  logic [32*32-1:0]         addr_i,   // each lane's address (v4: element 0's)
  input  logic [1:0]               elem_i,   // v4 element of this pass
  input  logic                     v4_i,
  input  logic                     single_i, // one lane per request (atomics)
  input  logic [32*32-1:0]         data_i,   // each lane's store data (or atomic operand)
  output logic [4:0]               leader_o,
  output logic [31:0]              group_o,
  output logic [31:0]              line_addr_o,
  output logic [LineBytes-1:0]     be_o,
  output logic [LineBytes*8-1:0]   wdata_o
);

  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] leader_addr;  // its line
  /* verilator lint_on UNUSEDSIGNAL */
  assign leader_o    = simt_sm_pkg::lowest(pend_i);
  assign leader_addr = addr_i[leader_o*32 +: 32];
  assign line_addr_o = {leader_addr[31:OffW], {OffW{1'b0}}};

  // A lane's word in its line: v4 lanes are 16-byte aligned, so element e is word e of the
  // lane's 16 bytes and never leaves the line.
  logic [OffW-3:0] word [32];
  always_comb begin
    for (int l = 0; l < 32; l++) begin
      /* verilator lint_off UNUSEDSIGNAL */
      logic [31:0] a;  // word-aligned (checked)
      /* verilator lint_on UNUSEDSIGNAL */
      a       = addr_i[l*32 +: 32];
      word[l] = (OffW-2)'(simt_sm_pkg::line_word(a[31:2], v4_i, elem_i));
      group_o[l] = pend_i[l] && (a[31:OffW] == leader_addr[31:OffW]) &&
                   (!single_i || leader_o == 5'(l));
    end
  end

  // Word by word, the highest lane of the group on it (one-hot), then an AND-OR mux: the
  // 32-lane by LineWords crossbar without priority chains.
  logic [31:0] drive [LineWords];
  always_comb begin
    for (int w = 0; w < LineWords; w++) begin
      logic seen;
      seen = 1'b0;
      for (int l = 31; l >= 0; l--) begin
        drive[w][l] = group_o[l] && word[l] == (OffW-2)'(w) && !seen;
        seen        = seen || (group_o[l] && word[l] == (OffW-2)'(w));
      end
    end
  end

  always_comb begin
    be_o    = '0;
    wdata_o = '0;
    for (int w = 0; w < LineWords; w++) begin
      be_o[w*4 +: 4] = {4{drive[w] != '0}};
      for (int l = 0; l < 32; l++) begin
        wdata_o[w*32 +: 32] = wdata_o[w*32 +: 32] | (drive[w][l] ? data_i[l*32 +: 32] : 32'd0);
      end
    end
  end

`ifdef VERILATOR
  always_comb begin
    if (pend_i != '0) begin
      assert (group_o[leader_o]) else $error("lsu coalesce: the leader is not in its request");
      assert ((group_o & ~pend_i) == '0) else $error("lsu coalesce: a lane requested twice");
    end
  end
`endif

endmodule
