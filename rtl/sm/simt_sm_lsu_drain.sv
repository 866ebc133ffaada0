// Load/store unit, v4 drain (32 lanes): a v4 load's lines written to the register file side
// by side (docs/blocks/sm.md, "The v4 drain").
//
// A v4 load's line holds four elements for each of its lanes (a 64-byte line: four lanes);
// the register file takes one register a lane a cycle, so one line alone needs four cycles
// of the write port while 28 lanes stay idle. The drain takes a line in one cycle (take_i:
// its lanes must have nothing left to write, pend_o), whether or not the write port is the
// unit's then, and keeps each lane's elements, its next register and its line's id. Each
// cycle the port is the unit's (go_i) every lane with an element left writes it at its own
// register address ({warp, register}, we_o with waddr_o; a line taken in that cycle writes
// its element 0 at once), so while another unit holds the port the lines wait in the drain
// and the memory's responses still come in, and afterwards up to eight lines (32 lanes)
// advance a cycle. A line is done when its lanes write their last element, all in the same
// cycle (they were taken together and advance together); several lines may end in one
// cycle, so their ids go back as a set (ret_o: the in-flight table frees them then, and with
// them the scoreboard's registers). Lines of different instructions and warps may be in the
// drain together.
//
// The caller takes a line only when the four registers' entries were written since their
// warp's launch (the register file's first write of an entry writes every lane, so it needs
// the one address a cycle: simt_sm_decode), and lets no other register write through while
// the drain holds a line.
module simt_sm_lsu_drain #(
  parameter int  RfAW      = 8,
  parameter int  IdW       = 6,
  parameter int  LineBytes = 64,
  localparam int WordW     = $clog2(LineBytes) - 2,
  localparam int NumQuads  = LineBytes / 16,
  localparam int NumIds    = 1 << IdW
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   go_i,          // the write port is the unit's this cycle
  input  logic                   take_i,        // a v4 load's line comes in
  input  logic [IdW-1:0]         take_id_i,
  input  logic [31:0]            take_lanes_i,
  input  logic [RfAW-1:0]        take_addr_i,   // {warp, rd}
  input  logic [32*WordW-1:0]    take_words_i,  // each lane's element 0 in the line
  input  logic [LineBytes*8-1:0] take_data_i,
  output logic [31:0]            pend_o,        // lanes with elements still to write
  output logic                   busy_o,        // a line is in the drain
  output logic [31:0]            we_o,
  output logic [32*RfAW-1:0]     waddr_o,       // lane l's register: [l*RfAW +: RfAW]
  output logic [32*32-1:0]       wdata_o,
  output logic [NumIds-1:0]      ret_o          // lines whose last elements are written now
);

  // Per lane l: elements left (0-4, [l*3 +: 3]), the next register ([l*RfAW +: RfAW]), the
  // elements still to write ([l*128 +: 128], the next in the low word), its line's id; flat
  // vectors (Yosys 0.23 takes whole unpacked arrays in no assignment, and no packed arrays of
  // more than one dimension).
  logic [32*3-1:0]    left_d, left_q;
  logic [32*RfAW-1:0] addr_d, addr_q;
  logic [32*128-1:0]  data_d, data_q;
  logic [32*IdW-1:0]  id_d, id_q;

  // The register after a: the next of its warp (v4 registers wrap from r31 to r0, as ISA.md).
  function automatic logic [RfAW-1:0] next_reg(logic [RfAW-1:0] a);
    next_reg = {a[RfAW-1:5], a[4:0] + 5'd1};
  endfunction

  always_comb begin
    we_o    = '0;
    waddr_o = '0;
    wdata_o = '0;
    pend_o  = '0;
    ret_o   = '0;
    for (int l = 0; l < 32; l++) begin
      logic [127:0]     elems;  // the taken line's four elements of lane l: its quad
      logic [WordW-1:0] word;
      word  = take_words_i[l*WordW +: WordW];
      elems = '0;
      for (int q = 0; q < NumQuads; q++) begin
        if (32'(word) / 4 == q) elems = take_data_i[q*128 +: 128];
      end
      left_d[l*3 +: 3]       = left_q[l*3 +: 3];
      addr_d[l*RfAW +: RfAW] = addr_q[l*RfAW +: RfAW];
      data_d[l*128 +: 128]   = data_q[l*128 +: 128];
      id_d[l*IdW +: IdW]     = id_q[l*IdW +: IdW];
      pend_o[l] = left_q[l*3 +: 3] != 3'd0;
      if (go_i && left_q[l*3 +: 3] != 3'd0) begin
        we_o[l]                 = 1'b1;
        waddr_o[l*RfAW +: RfAW] = addr_q[l*RfAW +: RfAW];
        wdata_o[l*32 +: 32]     = data_q[l*128 +: 32];
        left_d[l*3 +: 3]        = left_q[l*3 +: 3] - 3'd1;
        addr_d[l*RfAW +: RfAW]  = next_reg(addr_q[l*RfAW +: RfAW]);
        data_d[l*128 +: 128]    = {32'd0, data_q[l*128 + 32 +: 96]};
        if (left_q[l*3 +: 3] == 3'd1) ret_o[id_q[l*IdW +: IdW]] = 1'b1;
      end
      if (take_i && take_lanes_i[l]) begin
        id_d[l*IdW +: IdW] = take_id_i;
        if (go_i) begin
          we_o[l]                 = 1'b1;
          waddr_o[l*RfAW +: RfAW] = take_addr_i;
          wdata_o[l*32 +: 32]     = elems[31:0];
          left_d[l*3 +: 3]        = 3'd3;
          addr_d[l*RfAW +: RfAW]  = next_reg(take_addr_i);
          data_d[l*128 +: 128]    = {32'd0, elems[127:32]};
        end else begin
          left_d[l*3 +: 3]        = 3'd4;
          addr_d[l*RfAW +: RfAW]  = take_addr_i;
          data_d[l*128 +: 128]    = elems;
        end
      end
    end
  end
  assign busy_o = pend_o != '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      left_q <= '0;
    end else begin
      left_q <= left_d;
    end
  end
  // Contents: read only while their lane holds a line.
  always_ff @(posedge clk_i) begin
    addr_q <= addr_d;
    data_q <= data_d;
    id_q   <= id_d;
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(take_i && (take_lanes_i == '0 || (take_lanes_i & pend_o) != '0)))
        else $error("sm lsu drain: a line taken without lanes, or onto busy lanes");
      // A line's lanes stay together: the lanes of one id have the same count left (the
      // counts seen per id, three passes over the lanes: a compare of every pair cost
      // linked_list.s about 10 % of the verilated core's speed, this about 4 %).
      begin
        logic [4:0] seen [NumIds];
        for (int l = 0; l < 32; l++) seen[id_q[l*IdW +: IdW]] = '0;
        for (int l = 0; l < 32; l++) begin
          if (pend_o[l]) seen[id_q[l*IdW +: IdW]][left_q[l*3 +: 3]] = 1'b1;
        end
        for (int l = 0; l < 32; l++) begin
          assert (!pend_o[l] || $onehot(seen[id_q[l*IdW +: IdW]]))
            else $error("sm lsu drain: the lanes of id %0d apart (counts %b)",
                        id_q[l*IdW +: IdW], seen[id_q[l*IdW +: IdW]]);
        end
      end
    end
  end
`endif

endmodule
